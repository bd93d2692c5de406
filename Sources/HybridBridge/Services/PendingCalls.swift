import HybridEventLoop
import HybridJSON
import HybridServices
import Synchronization

/// Async service calls, of scripts (`ServiceCalls`) and of screens' `call` actions (the app
/// runtime's): each job starts at once, on the loop thread, in a Swift `Task`, so a
/// job that answers without waiting answers inside the call, with no hop to another thread and
/// back. One that waits goes on where Swift runs tasks (off the loop, so what it does after
/// waiting — decoding a body, writing a cache file — never holds up the scripts or the
/// screen); it is counted as work in flight on the loop and settled once on the loop — by its
/// answer or by its timeout, whichever comes first (the other is dropped, and a timed-out job
/// is cancelled).
///
/// Loop thread only; a job's task only posts its answer back to the loop.
public final class PendingCalls: @unchecked Sendable {
    /// An async service's work (see `ServiceRegistry.Invocation.running`).
    public typealias Job = @Sendable () async throws -> any Encodable & Sendable

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

    /// Calls settled on `loop`.
    public init(loop: EventLoop) {
        self.loop = loop
    }

    /// How many calls are in flight.
    var count: Int { calls.count }

    /// What `start` did: the job answered before it first waited, or it is in flight as the
    /// call numbered `id` (for `cancel(id:)`).
    public enum Started {
        case answered(Result<JSONValue, ServiceError>)
        case inFlight(id: Int)
    }

    /// Starts the service `name` of `services` as `caller`: a sync service runs here and
    /// answers at once (so does one that could not start), an async one through `start`,
    /// bounded by `timeout` seconds, or, when nil, by the service's own.
    @discardableResult
    public func call(_ name: String, parameters: any ServiceParameters, caller: ServiceCaller, in services: ServiceRegistry, timeout: Double?,
                     owner: ObjectIdentifier? = nil, settlement: () -> (Result<JSONValue, ServiceError>) -> Void) -> Started {
        call(services.lookUp(name), parameters: parameters, caller: caller, in: services, timeout: timeout, owner: owner, settlement: settlement)
    }

    /// `call(_:parameters:caller:in:timeout:owner:settlement:)` of a service found earlier.
    @discardableResult
    public func call(_ service: ServiceRegistry.Lookup, parameters: any ServiceParameters, caller: ServiceCaller, in services: ServiceRegistry,
                     timeout: Double?, owner: ObjectIdentifier? = nil, settlement: () -> (Result<JSONValue, ServiceError>) -> Void) -> Started {
        let name = service.name
        switch services.start(service, parameters: parameters, caller: caller) {
        case .failure(let error):
            return .answered(.failure(error))
        case .success(.finished(let value)):
            return .answered(ServiceRegistry.encode(value, from: name))
        case .success(.running(let job, let serviceTimeout)):
            return start(job, name: name, timeout: timeout ?? serviceTimeout, owner: owner, settlement: settlement)
        }
    }

    /// Runs `job`, the service `name`, for `owner` (nil: nobody's).
    ///
    /// The job starts at once, on this thread, and runs until it first waits for something
    /// (`Task.immediate`): a job that never waits answers here, like a sync service, with no
    /// turn of the loop, no timer and no second entry into JavaScript. One that waits becomes a
    /// call in flight: `settlement()` is asked then for what gets its answer (or `E_TIMEOUT`
    /// after `timeout` seconds, when given) on the loop, once; the job goes on off the loop.
    @discardableResult
    public func start(_ job: @escaping Job, name: String, timeout: Double?, owner: ObjectIdentifier? = nil,
                      settlement: () -> (Result<JSONValue, ServiceError>) -> Void) -> Started {
        let id = nextID
        nextID += 1
        let start = ImmediateStart()
        let task = Task.immediate { [loop] in
            let result: Result<JSONValue, ServiceError>
            do {
                result = ServiceRegistry.encode(try await job(), from: name)
            } catch {
                result = .failure(ServiceRegistry.failure(error, in: name))
            }
            // Still inside `Task.immediate`: the answer is `start`'s to return. Else the job
            // waited (and may be finishing on another thread): its answer goes to the loop.
            if !start.keep(result) {
                loop.post { [weak self] in self?.settle(id, result) }
            }
        }
        if let result = start.close() { return .answered(result) }
        let call = Call(owner: owner, settle: settlement())
        call.task = task
        calls[id] = call
        loop.beginWork()
        if let timeout {
            call.timeout = loop.schedule(after: timeout) { [weak self] in
                self?.settle(id, .failure(ServiceError(.timeout, "\(name) did not answer within \(formatDuration(timeout))")))
            }
        }
        return .inFlight(id: id)
    }

    /// The hand-over between a job's immediate start and `start`: a job that waited resumes on
    /// another thread and may finish before `start` is done with it, so whichever comes first
    /// decides, under a lock, whether the answer is returned at once or posted to the loop.
    private final class ImmediateStart: Sendable {
        private let state = Mutex<(isOpen: Bool, result: Result<JSONValue, ServiceError>?)>((true, nil))

        /// Keeps `result` for `start` while it has not closed; answers whether it did.
        func keep(_ result: Result<JSONValue, ServiceError>) -> Bool {
            state.withLock { state in
                guard state.isOpen else { return false }
                state.result = result
                return true
            }
        }

        /// Ends the immediate start: the answer kept by then, or nil (the job will post it).
        func close() -> Result<JSONValue, ServiceError>? {
            state.withLock { state in
                state.isOpen = false
                return state.result
            }
        }
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
