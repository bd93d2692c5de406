import HybridEventLoop
import HybridJSON
import HybridServices

/// Async service calls in flight: each job runs in a Swift `Task` whose executor is the loop
/// (so a job that answers without waiting answers in the same turn, with no hop to another
/// thread and back), counted as work in flight on the loop, and is settled once on the loop —
/// by its answer or by its timeout, whichever comes first (the other is dropped, and a
/// timed-out job is cancelled).
///
/// Loop thread only; a job's task only posts its answer back to the loop.
final class PendingCalls: @unchecked Sendable {
    /// An async service's work (see `ServiceRegistry.Invocation.running`).
    typealias Job = @Sendable () async throws -> any Encodable & Sendable

    private let loop: EventLoop
    private var calls: [Int: Call] = [:]
    private var nextID = 1

    private final class Call {
        let settle: (Result<JSONValue, ServiceError>) -> Void
        /// Who made it (a screen), when a call belongs to one.
        let owner: ObjectIdentifier?
        var timeout: EventLoop.TimerID?
        var task: Task<Void, Never>?

        init(owner: ObjectIdentifier?, settle: @escaping (Result<JSONValue, ServiceError>) -> Void) {
            self.owner = owner
            self.settle = settle
        }
    }

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// How many calls are in flight.
    var count: Int { calls.count }

    /// Runs `job`, the service `name`, for `owner` (nil: nobody's); `settle` gets its answer (or
    /// `E_TIMEOUT` after `timeout` seconds, when given) on the loop, once. Answers the call's
    /// number, for `cancel(id:)`.
    @discardableResult
    func start(_ job: @escaping Job, name: String, timeout: Double?, owner: ObjectIdentifier? = nil,
               settle: @escaping (Result<JSONValue, ServiceError>) -> Void) -> Int {
        let id = nextID
        nextID += 1
        let call = Call(owner: owner, settle: settle)
        calls[id] = call
        loop.beginWork()
        if let timeout {
            call.timeout = loop.schedule(after: timeout) { [weak self] in
                self?.settle(id, .failure(ServiceError(.timeout, "\(name) did not answer within \(formatDuration(timeout))")))
            }
        }
        call.task = Task(executorPreference: loop) { [loop] in
            let result: Result<JSONValue, ServiceError>
            do {
                result = ServiceRegistry.encode(try await job(), from: name)
            } catch {
                result = .failure(ServiceRegistry.failure(error, in: name))
            }
            loop.post { [weak self] in self?.settle(id, result) }
        }
        return id
    }

    /// Drops the call numbered `id` (an aborted `AbortSignal`), cancelling its work; it is not
    /// settled. Nothing happens when it settled already.
    func cancel(id: Int) {
        cancel { $0 === calls[id] }
    }

    /// Drops every call in flight, cancelling its work; none is settled.
    func cancelAll() {
        cancel { _ in true }
    }

    /// Drops the calls of owners no longer in `owners` (their screens closed), cancelling their
    /// work; none is settled, so nothing of theirs runs. Calls of nobody stay.
    func cancel(keepingOwners owners: Set<ObjectIdentifier>) {
        cancel { call in call.owner.map { !owners.contains($0) } ?? false }
    }

    private func cancel(where condition: (Call) -> Bool) {
        for (id, call) in calls where condition(call) {
            call.task?.cancel()
            if let timeout = call.timeout { loop.cancel(timeout) }
            loop.endWork()
            calls[id] = nil
        }
    }

    private func settle(_ id: Int, _ outcome: Result<JSONValue, ServiceError>) {
        // A call settles once: a result after its timeout (or the reverse) is dropped.
        guard let call = calls.removeValue(forKey: id) else { return }
        if let timeout = call.timeout { loop.cancel(timeout) }
        call.task?.cancel()
        loop.endWork()
        call.settle(outcome)
    }
}
