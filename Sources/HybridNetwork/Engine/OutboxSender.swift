import Foundation
import HybridJSON
import Synchronization

/// Sends what the outbox holds (SPEC §7.1 `offline: "queue"`): in order, oldest first, each
/// service's calls on their own, so a host that is down holds back only its own calls. One
/// flush runs at a time; asking for another while one runs joins it.
///
/// What a try's answer means for the call: a 2xx sends it (removed); no answer, a deadline, a
/// 408, 429 or 5xx keeps it for the next flush (its `Idempotency-Key` makes the next try safe)
/// and holds back the service's later calls; any other answer refuses it for good (removed and
/// reported, since the script that queued it was answered long ago).
final class OutboxSender: Sendable {
    /// What a flush did.
    struct Result: Sendable, Equatable {
        /// Calls sent and answered with 2xx.
        var sent = 0
        /// Calls the server refused for good, or that no longer name a usable API.
        var dropped = 0
        /// Calls still waiting.
        var left = 0

        var json: JSONValue {
            .object(JSONObject([("sent", .integer(sent)), ("dropped", .integer(dropped)), ("left", .integer(left))]))
        }
    }

    /// How a try of a queued call ended, as `send` tells it.
    enum Outcome: Sendable {
        /// Answered with 2xx.
        case sent
        /// Not answered, or answered "not now": try again later.
        case later
        /// Refused for good: the reason is reported.
        case refused(String)
    }

    let outbox: Outbox
    /// Which service each API belongs to (nil: no such API any more).
    private let serviceOf: @Sendable (String) -> String?
    /// Tries one queued call.
    private let send: @Sendable (Outbox.Entry) async -> Outcome
    private let report: @Sendable (String) -> Void
    /// The flush running, which a new request joins.
    private let running = Mutex<Task<Result, Never>?>(nil)

    init(outbox: Outbox, serviceOf: @escaping @Sendable (String) -> String?, report: @escaping @Sendable (String) -> Void,
         send: @escaping @Sendable (Outbox.Entry) async -> Outcome) {
        self.outbox = outbox
        self.serviceOf = serviceOf
        self.report = report
        self.send = send
    }

    /// Sends what waits, or joins the flush already running. The flush goes on when the
    /// caller is cancelled: the calls are the app's, not the caller's.
    func flush() async -> Result {
        let task = running.withLock { current in
            if let task = current { return task }
            let task = Task { [self] in
                let result = await sendAll()
                running.withLock { $0 = nil }
                return result
            }
            current = task
            return task
        }
        return await task.value
    }

    /// Flushes every `interval` while the returned task runs (the owner cancels it).
    func flushPeriodically(every interval: Duration) -> Task<Void, Never> {
        Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self, !Task.isCancelled else { return }
                if !outbox.all.isEmpty { _ = await flush() }
            }
        }
    }

    private func sendAll() async -> Result {
        var result = Result()
        var heldBack = Set<String>()
        for entry in outbox.all {
            guard let service = serviceOf(entry.api) else {
                outbox.remove(entry)
                result.dropped += 1
                report("outbox: \(entry.api) (request \(entry.requestID)) was dropped: the bundle no longer declares this API")
                continue
            }
            if heldBack.contains(service) {
                result.left += 1
                continue
            }
            switch await send(entry) {
            case .sent:
                outbox.remove(entry)
                result.sent += 1
            case .later:
                outbox.countTry(of: entry)
                heldBack.insert(service)
                result.left += 1
            case .refused(let reason):
                outbox.remove(entry)
                result.dropped += 1
                report("outbox: \(entry.api) (request \(entry.requestID)) was dropped: \(reason)")
            }
        }
        return result
    }

    /// What a failed try of a queued call means: worth another try later, or refused for good.
    static func outcome(of error: CallError) -> Outcome {
        switch error.code {
        case "E_OFFLINE", "E_TIMEOUT", "E_CANCELLED", "E_FAILED", "E_DENIED":
            return .later
        case "E_HTTP":
            guard case .integer(let status)? = error.details?["status"] else { return .refused(error.message) }
            return status == 408 || status == 429 || status >= 500 ? .later : .refused(error.message)
        default:
            return .refused(error.message)
        }
    }
}
