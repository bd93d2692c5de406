import HybridJSON
import Synchronization

/// The calls of each API in flight, and what a new one does about them (SPEC §7.1 `inFlight`):
/// `parallel` sends it too; `dedupe` shares the answer of an identical call in flight (one
/// request); `ignoreNew` refuses it with `E_DUPLICATE`, nothing sent; `cancelPrevious` cancels
/// the calls in flight (`E_CANCELLED`, their connections closed) and sends it.
final class InFlightCalls: Sendable {
    /// One request in flight; every caller sharing it awaits the same answer. When every caller
    /// waiting for it is cancelled (its screen closed), the request is cancelled too and its
    /// connection closes.
    final class Flight: Sendable {
        let key: String
        /// Its number among the client's flights, by which it leaves the list when it lands.
        let number: Int
        let task: Task<JSONValue, any Error>
        /// How many callers wait for the answer.
        private let waiting = Mutex(0)

        init(key: String, number: Int, task: Task<JSONValue, any Error>) {
            self.key = key
            self.number = number
            self.task = task
        }

        /// The answer, or the call's error (a cancelled one as `E_CANCELLED`).
        func answer() async throws(CallError) -> JSONValue {
            waiting.withLock { $0 += 1 }
            let result = await withTaskCancellationHandler {
                await task.result
            } onCancel: {
                if waiting.withLock({ $0 -= 1; return $0 }) == 0 { task.cancel() }
            }
            if !Task.isCancelled { waiting.withLock { $0 -= 1 } }
            switch result {
            case .success(let value):
                return value
            case .failure(let error as CallError):
                throw error
            case .failure:
                throw CallError(code: "E_CANCELLED", message: "\(key.prefix { $0 != "\u{0}" }): the call was cancelled")
            }
        }
    }

    /// Flights by API name, and the number of the last one made.
    private let flights = Mutex<(byAPI: [String: [Flight]], lastNumber: Int)>(([:], 0))

    /// Cancels every call in flight of the APIs `matches` accepts (`api.cancel`).
    func cancel(where matches: (String) -> Bool) {
        flights.withLock { flights in
            for (api, list) in flights.byAPI where matches(api) {
                list.forEach { $0.task.cancel() }
                flights.byAPI[api] = []
            }
        }
    }

    /// The flight `prepared` rides: a new one running `send`, or (with `dedupe`) an identical
    /// one in flight.
    func board(_ prepared: PreparedRequest, policy: APIDefinitions.InFlight,
               send: @escaping @Sendable () async throws(CallError) -> JSONValue) throws(CallError) -> Flight {
        let api = prepared.api
        let decision: Result<Flight, CallError> = flights.withLock { flights in
            let current = flights.byAPI[api] ?? []
            switch policy {
            case .dedupe:
                if let shared = current.first(where: { $0.key == prepared.cacheKey }) { return .success(shared) }
            case .ignoreNew:
                if !current.isEmpty {
                    return .failure(CallError(code: "E_DUPLICATE",
                                              message: "\(api): a call of this API is in flight (its inFlight is ignoreNew); nothing was sent"))
                }
            case .cancelPrevious:
                current.forEach { $0.task.cancel() }
                flights.byAPI[api] = []
            case .parallel:
                break
            }
            flights.lastNumber += 1
            let number = flights.lastNumber
            // Off the list once it lands, however it lands.
            let task = Task<JSONValue, any Error> { [weak self] in
                defer { self?.flights.withLock { $0.byAPI[api]?.removeAll { $0.number == number } } }
                return try await send()
            }
            let flight = Flight(key: prepared.cacheKey, number: number, task: task)
            flights.byAPI[api, default: []].append(flight)
            return .success(flight)
        }
        return try decision.get()
    }
}
