import Foundation
import HybridHTTP
import HybridJSON

/// Calls a bundle's APIs (SPEC §7.1): each call checked and prepared (`PreparedRequest`),
/// signed when its service asks, sent with its own `X-Request-ID` through the process's one
/// HTTP transport, and answered as `{data, status, headers, fromCache, stale, requestId}`.
///
/// Answers of APIs with a `cache` are kept (`AnswerCache`) and served while fresh; a stale one
/// stands in for a failure when the API says `staleIfError`. A call while another of its API
/// is in flight follows the API's `inFlight` (`InFlightCalls`); a failed attempt is tried again
/// as its `retry` says, where that is safe. A call of an API marked `offline: "queue"` whose host
/// cannot be reached waits in the outbox (`Outbox`, sent by `OutboxSender`) and is answered
/// `{queued: true, requestId}`; what waits is sent before any later call of its service, every
/// 30 seconds, and on `flush()`. Failures are `CallError`s with SPEC §7.2's codes.
public final class APIClient: Sendable {
    /// The APIs and services it calls.
    public let definitions: APIDefinitions
    /// The host's secrets by name (never visible to scripts).
    private let secrets: [String: String]
    private let transport: HTTPTransport
    private let cache: AnswerCache
    private let flights = InFlightCalls()
    /// Sends the outbox: `flush()`, before a call of a service with calls waiting, periodically.
    private let outboxSender: OutboxSender
    /// The queueing calls of each service, one at a time, in the order they were made.
    private let queueingCalls = CallQueue()
    /// The APIs of each service: the calls a queued one must not be overtaken by.
    private let apisByService: [String: Set<String>]
    /// The periodic flush, stopped with the client.
    private let periodicFlush: Task<Void, Never>
    /// The time, for cache ages (a test's clock can stand in).
    private let now: @Sendable () -> Date
    /// Told one line per call (`--trace net`): request id, API, cache, status, milliseconds.
    private let trace: (@Sendable (String) -> Void)?

    /// How a call uses the cache (`api.call`'s `cache` option).
    public enum CacheMode: String, Sendable, Decodable {
        /// A fresh kept answer, else the network.
        case `default`
        /// The network, whatever is kept (the answer is kept again).
        case reload
        /// A kept answer however old, else `E_OFFLINE`: nothing is sent.
        case only
    }

    /// The most an answer's body may hold.
    public static let bodyLimit = 16 << 20

    /// A client for `definitions`, signing with `secrets`.
    /// - Parameters:
    ///   - cache: where answers are kept (disk entries in its folder).
    ///   - outbox: where queued calls wait; what an earlier run left there is sent at once.
    ///   - flushInterval: how often the outbox is tried while calls wait in it.
    ///   - now: the clock cache ages are measured by.
    ///   - trace: told one line per call, when calls are traced.
    ///   - report: told what the outbox dropped.
    public init(definitions: APIDefinitions, secrets: [String: String] = [:], cache: AnswerCache = AnswerCache(folder: nil),
                outbox: Outbox = Outbox(folder: nil), flushInterval: Duration = .seconds(30),
                transport: HTTPTransport = .shared, now: @escaping @Sendable () -> Date = Date.init,
                trace: (@Sendable (String) -> Void)? = nil, report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.definitions = definitions
        self.secrets = secrets
        self.cache = cache
        self.transport = transport
        self.now = now
        self.trace = trace
        apisByService = Dictionary(grouping: definitions.apis, by: \.value.service).mapValues { Set($0.map(\.key)) }
        // The sender calls back into the client weakly: the client owns it, not the reverse.
        let client = WeakClient()
        outboxSender = OutboxSender(outbox: outbox, serviceOf: { definitions.apis[$0]?.service }, report: report) { entry in
            await client.value?.sendQueued(entry) ?? .later
        }
        periodicFlush = outboxSender.flushPeriodically(every: flushInterval)
        client.value = self
        if !outbox.all.isEmpty { Task { [outboxSender] in _ = await outboxSender.flush() } }
    }

    deinit {
        periodicFlush.cancel()
    }

    /// The calls waiting in the outbox, oldest first (`api.outbox()`).
    public var outbox: [Outbox.Entry] { outboxSender.outbox.all }

    /// Sends what waits in the outbox, in order (`api.flush()`): `{sent, dropped, left}`.
    public func flush() async -> JSONValue {
        await outboxSender.flush().json
    }

    /// How a call begins (`start`): answered at once, or work that gives the answer.
    public enum Start: Sendable {
        /// A fresh kept answer.
        case answered(JSONValue)
        /// Run this for the answer.
        case pending(@Sendable () async throws(CallError) -> JSONValue)
    }

    /// Calls the API `name` with `params`; `timeout` (seconds) overrides the service's.
    public func call(_ name: String, params: JSONValue, timeout: Double? = nil, cacheMode: CacheMode = .default) async throws(CallError) -> JSONValue {
        switch try start(name, params: params, timeout: timeout, cacheMode: cacheMode) {
        case .answered(let answer): return answer
        case .pending(let job): return try await job()
        }
    }

    /// Begins a call on the caller's thread: its params checked, a fresh kept answer given at
    /// once, and otherwise the call boarded on its API's flights now, so in-flight policies
    /// judge calls in the order they were made (100 calls of a `dedupe` API made together are
    /// one request). A queueing API, or a service with calls waiting in the outbox, goes on in
    /// the pending work.
    public func start(_ name: String, params: JSONValue, timeout: Double? = nil, cacheMode: CacheMode = .default) throws(CallError) -> Start {
        do {
            return try begin(name, params: params, timeout: timeout, cacheMode: cacheMode)
        } catch {
            // Refused before anything was sent: still one line per call.
            trace?("net \(error.details?["requestId"]?.stringValue ?? "-") \(name) status=\(error.code) 0 ms")
            throw error
        }
    }

    private func begin(_ name: String, params: JSONValue, timeout: Double?, cacheMode: CacheMode) throws(CallError) -> Start {
        let prepared = try definitions.prepare(name, params: params)
        guard let api = definitions.apis[name], let service = definitions.services[api.service] else {
            throw CallError(code: "E_NO_SERVICE", message: "api.call: no API named \(DiagnosticText.quoted(name))")
        }
        let serviceAPIs = apisByService[api.service] ?? []
        let waiting = outboxSender.outbox.holds(anyOf: serviceAPIs)
        let kept = api.cache.flatMap { cache.entry(for: prepared.cacheKey, store: $0.store) }
        if let policy = api.cache, let kept, !waiting, cacheMode != .reload {
            let age = now().timeIntervalSince(kept.stored)
            if cacheMode == .only || age >= 0 && age < policy.ttl {
                let answer = Self.marked(kept.answer, fromCache: true, stale: age >= policy.ttl || age < 0)
                trace?("net \(answer["requestId"]?.stringValue ?? "-") \(name) cache=\(answer["stale"] == .bool(true) ? "stale" : "hit") status=\(answer["status"]?.jsonText ?? "-") 0 ms")
                return .answered(answer)
            }
        }
        if cacheMode == .only {
            throw CallError(code: "E_OFFLINE", message: "\(name): nothing kept for these params, and cache \"only\" sends nothing")
        }
        if waiting || api.offline == .queue {
            return .pending { [self] () async throws(CallError) -> JSONValue in
                try await traced(name) { () async throws(CallError) -> JSONValue in
                    if outboxSender.outbox.holds(anyOf: serviceAPIs) { _ = await outboxSender.flush() }
                    guard api.offline == .queue else { return try await land(board(prepared, api: api, service: service, timeout: timeout), kept: kept, api: api) }
                    return try await queueingCalls.run(for: api.service) { () async throws(CallError) -> JSONValue in
                        try await sendOrQueue(prepared, api: api, service: service, timeout: timeout, serviceAPIs: serviceAPIs)
                    }
                }
            }
        }
        let flight = try board(prepared, api: api, service: service, timeout: timeout)
        return .pending { [self] () async throws(CallError) -> JSONValue in
            try await traced(name) { () async throws(CallError) -> JSONValue in try await land(flight, kept: kept, api: api) }
        }
    }

    /// `job`'s answer, told to `trace` as one line: request id, API, cache, status, milliseconds.
    private func traced(_ name: String, _ job: () async throws(CallError) -> JSONValue) async throws(CallError) -> JSONValue {
        guard let trace else { return try await job() }
        let start = ContinuousClock.now
        let milliseconds = { () -> Int in
            let elapsed = ContinuousClock.now - start
            return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        }
        do {
            let answer = try await job()
            let cache = answer["stale"] == .bool(true) ? "stale" : answer["fromCache"] == .bool(true) ? "hit" : definitions.apis[name]?.cache == nil ? "none" : "miss"
            if answer["queued"] != .bool(true) {
                trace("net \(answer["requestId"]?.stringValue ?? "-") \(name) cache=\(cache) status=\(answer["status"].map { $0.jsonText } ?? "-") \(milliseconds()) ms")
            }
            return answer
        } catch {
            let status = error.details?["status"].map { $0.jsonText } ?? error.code
            trace("net \(error.details?["requestId"]?.stringValue ?? "-") \(name) status=\(status) \(milliseconds()) ms")
            throw error
        }
    }

    /// The answer `flight` brings, kept when its API caches; when it fails, a kept answer
    /// however old stands in if the API says `staleIfError` (not for a refusal).
    private func land(_ flight: InFlightCalls.Flight, kept: AnswerCache.Entry?, api: APIDefinitions.API) async throws(CallError) -> JSONValue {
        do {
            let answer = try await flight.answer()
            if let policy = api.cache { cache.keep(answer, for: flight.key, store: policy.store, now: now()) }
            return answer
        } catch {
            guard api.cache?.staleIfError == true, let kept, ["E_OFFLINE", "E_TIMEOUT", "E_HTTP", "E_FAILED"].contains(error.code) else { throw error }
            return Self.marked(kept.answer, fromCache: true, stale: true)
        }
    }

    /// Sends a call of an API marked `offline: "queue"`, or queues it (answered `{queued: true,
    /// requestId}`) when its host cannot be reached or calls of its service still wait, so
    /// they reach the server in the order they were made (such calls of one service go one
    /// at a time).
    private func sendOrQueue(_ prepared: PreparedRequest, api: APIDefinitions.API, service: APIDefinitions.Service,
                             timeout: Double?, serviceAPIs: Set<String>) async throws(CallError) -> JSONValue {
        let requestID = RequestSignature.freshNonce()
        if !outboxSender.outbox.holds(anyOf: serviceAPIs) {
            do {
                return try await board(prepared, api: api, service: service, timeout: timeout, requestID: requestID).answer()
            } catch where error.code == "E_OFFLINE" {
                // Not reached: nothing was sent, so the call waits and goes later, once.
            }
        }
        _ = try outboxSender.outbox.add(api: prepared.api, params: prepared.params, requestID: requestID, at: now())
        trace?("net \(requestID) \(prepared.api) queued")
        return .object(JSONObject([("queued", .bool(true)), ("requestId", .string(requestID))]))
    }

    /// Tries a queued call once more, with its own request id as its `Idempotency-Key`.
    fileprivate func sendQueued(_ entry: Outbox.Entry) async -> OutboxSender.Outcome {
        guard let api = definitions.apis[entry.api], let service = definitions.services[api.service] else {
            return .refused("the bundle no longer declares this API")
        }
        do {
            let prepared = try definitions.prepare(entry.api, params: entry.params)
            let answer = try await send(prepared, api: api, service: service, timeout: nil, requestID: entry.requestID)
            trace?("net \(entry.requestID) \(entry.api) sent from the outbox status=\(answer["status"]?.jsonText ?? "-")")
            return .sent
        } catch {
            trace?("net \(entry.requestID) \(entry.api) outbox \(error.code)")
            return OutboxSender.outcome(of: error)
        }
    }

    /// Boards `prepared` on its API's flights under the API's in-flight policy: shared with an
    /// identical call in flight (`dedupe`), refused while one is (`ignoreNew`), or cancelling it
    /// (`cancelPrevious`).
    /// - Parameter requestID: the call's id; a new one when nil.
    private func board(_ prepared: PreparedRequest, api: APIDefinitions.API, service: APIDefinitions.Service,
                       timeout: Double?, requestID: String? = nil) throws(CallError) -> InFlightCalls.Flight {
        try flights.board(prepared, policy: api.inFlight) { [self] () async throws(CallError) -> JSONValue in
            try await attempt(prepared, api: api, service: service, timeout: timeout, requestID: requestID ?? RequestSignature.freshNonce())
        }
    }

    /// Forgets the kept answers of the APIs `pattern` names (`items.list`, `shop.*`, `*`).
    public func invalidate(_ pattern: String) {
        cache.forget { APIDefinitions.name($0, matches: pattern) }
    }

    /// Cancels the calls in flight of the APIs `pattern` names: they reject with `E_CANCELLED`
    /// and their connections close.
    public func cancel(_ pattern: String) {
        flights.cancel { APIDefinitions.name($0, matches: pattern) }
    }

    /// `answer` with its `fromCache` and `stale` set.
    static func marked(_ answer: JSONValue, fromCache: Bool, stale: Bool) -> JSONValue {
        guard case .object(var object) = answer else { return answer }
        object["fromCache"] = .bool(fromCache)
        object["stale"] = .bool(stale)
        return .object(object)
    }

    /// Sends `prepared`, trying again as the API's `retry` says: only when sending twice does
    /// no harm (GET, HEAD, PUT, DELETE, or an API marked `idempotent`), after `backoff` ms
    /// doubling each time. Every attempt carries the call's one request id and a fresh nonce.
    private func attempt(_ prepared: PreparedRequest, api: APIDefinitions.API, service: APIDefinitions.Service,
                         timeout: Double?, requestID: String) async throws(CallError) -> JSONValue {
        let safe = ["GET", "HEAD", "PUT", "DELETE"].contains(api.method) || api.idempotent
        let retry = safe ? api.retry : nil
        var tries = 0
        while true {
            do {
                return try await send(prepared, api: api, service: service, timeout: timeout, requestID: requestID)
            } catch {
                guard let retry, tries < retry.count, Self.isRetried(error, by: retry) else { throw error }
                tries += 1
                let wait = retry.backoff * pow(2, Double(tries - 1))
                do {
                    try await Task.sleep(nanoseconds: UInt64(min(wait, 600_000) * 1_000_000))
                } catch {
                    throw CallError(code: "E_CANCELLED", message: "\(prepared.api): the call was cancelled while waiting to try again")
                }
            }
        }
    }

    /// Whether `error` is one `retry` tries again: its status or its code is listed.
    static func isRetried(_ error: CallError, by retry: APIDefinitions.Retry) -> Bool {
        if error.code == "E_HTTP", case .integer(let status)? = error.details?["status"] { return retry.statuses.contains(status) }
        return retry.codes.contains(error.code)
    }

    /// Sends one prepared call: its headers, its signature, the transport, the answer. A call of
    /// a queueing API carries its request id as `Idempotency-Key` too, on every try, so a
    /// server can tell a try it already answered.
    private func send(_ prepared: PreparedRequest, api: APIDefinitions.API, service: APIDefinitions.Service,
                      timeout: Double?, requestID: String) async throws(CallError) -> JSONValue {
        let name = prepared.api
        var headers = service.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        headers.append(("X-Request-ID", requestID))
        if api.offline == .queue { headers.append(("Idempotency-Key", requestID)) }
        if prepared.body != nil { headers.append(("Content-Type", "application/json")) }
        if let secretName = service.signingSecret {
            guard let secret = secrets[secretName] else {
                throw CallError(code: "E_DENIED", message: "\(name): the service \(DiagnosticText.quoted(api.service)) signs with the secret "
                                + "\(DiagnosticText.quoted(secretName)), which the host did not supply (hybrid run --secrets FILE.json)")
            }
            headers += RequestSignature(signing: prepared, secret: secret).headers
        }
        guard let url = URL(string: prepared.url) else {
            throw CallError(code: "E_BAD_PARAMS", message: "\(name): \(DiagnosticText.quoted(prepared.url)) is not a usable URL")
        }
        let seconds = min(max(timeout ?? service.timeout, 0.001), 86_400)
        let request = HTTPTransport.Request(method: prepared.method, url: url, headers: headers, body: prepared.body,
                                           timeout: .milliseconds(Int64(seconds * 1000)), bodyLimit: Self.bodyLimit)
        let response: HTTPTransport.Response
        do {
            response = try await transport.send(request)
        } catch {
            throw Self.callError(error, api: name, url: prepared.url, requestID: requestID)
        }
        let data = Self.data(of: response.body)
        let answerHeaders = JSONObject(response.headers.map { ($0.name.lowercased(), JSONValue.string($0.value)) })
        guard (200...299).contains(response.status) else {
            throw CallError(code: "E_HTTP", message: "\(name): \(prepared.method) \(prepared.url) answered \(response.status) (request \(requestID))",
                            details: JSONObject([("status", .integer(response.status)), ("data", data), ("requestId", .string(requestID))]))
        }
        return .object(JSONObject([
            ("data", data), ("status", .integer(response.status)), ("headers", .object(answerHeaders)),
            ("fromCache", .bool(false)), ("stale", .bool(false)), ("requestId", .string(requestID)),
        ]))
    }

    /// The parsed JSON body, or its text when it is not JSON (`null` when empty).
    static func data(of body: [UInt8]) -> JSONValue {
        if body.isEmpty { return .null }
        if let json = try? JSONParser.parse(body).plain { return json }
        return .string(String(decoding: body, as: UTF8.self))
    }

    /// A transport failure as SPEC §7.2's code: unreachable is `E_OFFLINE`, a deadline
    /// `E_TIMEOUT`, a cancel `E_CANCELLED`, the rest `E_FAILED`; the request id is named.
    static func callError(_ failure: HTTPTransport.Failure, api: String, url: String, requestID: String) -> CallError {
        let code = switch failure {
        case .cannotConnect: "E_OFFLINE"
        case .timedOut: "E_TIMEOUT"
        case .cancelled: "E_CANCELLED"
        default: "E_FAILED"
        }
        return CallError(code: code, message: "\(api): \(url): \(failure) (request \(requestID))",
                         details: JSONObject([("requestId", .string(requestID))]))
    }
}

/// The client as its outbox sender reaches it, without keeping it alive.
private final class WeakClient: @unchecked Sendable {
    // Set once, in the client's init, before any flush can read it.
    weak var value: APIClient?
}
