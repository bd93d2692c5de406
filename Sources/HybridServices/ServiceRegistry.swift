import Foundation
import HybridJSON
import Synchronization

/// The native services scripts can call, by `domain.verb` name.
///
/// Each entry decodes its parameters from the caller's form (`ServiceParameters`) into the
/// Swift type its closure takes, so a bad call is refused with `E_BAD_PARAMS` naming the field
/// before any service code runs. Sync services run on the caller's thread; async ones return a
/// job the caller runs (the bridge starts it at once on the JavaScript thread: one that answers
/// without waiting answers inside the call; one that waits goes on off that thread).
public final class ServiceRegistry: Sendable {
    // Registration happens at start-up, lookups on the JavaScript thread; a lock keeps a host
    // that registers later from racing them. A `Mutex` owning the state, not a lock beside it:
    // a lookup is one uncontended atomic each way, with no exclusivity check on the state.
    private let state = Mutex(State())
    /// Counts registrations; changed under `state`'s lock, read without it (every script call
    /// asks whether what it found earlier still holds).
    private let changes = Atomic(0)

    private struct State {
        var entries: [String: Entry] = [:]
    }

    /// The Swift functions declared patchable for scripts that call these services.
    public let patchableMethods = PatchableMethods()

    /// An empty registry.
    public init() {}

    /// The result of starting a call: a value already, or work to finish.
    public enum Invocation: Sendable {
        /// A sync service answered.
        case finished(any Encodable & Sendable)
        /// An async service: run this to get the answer (it throws `ServiceError`s); `timeout`
        /// is the service's (`ServiceDescription.timeout`), for a caller that has none of its own.
        case running(@Sendable () async throws -> any Encodable & Sendable, timeout: Double?)
    }

    /// A class, so that looking one up for a call retains one object instead of copying its
    /// fields (a measurable part of a sync call).
    final class Entry: Sendable {
        let description: ServiceDescription
        // Copies of `description`'s, read on every call without copying the whole description.
        let isSync: Bool
        let permission: String?
        let fieldNames: [String]
        let acceptsAnyFields: Bool
        /// Decodes the parameters (given `fieldNames`) and starts the service.
        let start: @Sendable (any ServiceParameters, _ fieldNames: [String]) throws(StartFailure) -> Invocation

        init(description: ServiceDescription, fieldNames: [String], acceptsAnyFields: Bool,
             start: @escaping @Sendable (any ServiceParameters, _ fieldNames: [String]) throws(StartFailure) -> Invocation) {
            self.description = description
            isSync = description.isSync
            permission = description.permission
            self.fieldNames = fieldNames
            self.acceptsAnyFields = acceptsAnyFields
            self.start = start
        }
    }

    /// Why an entry could not start: its parameters did not decode (the caller's fault,
    /// `E_BAD_PARAMS`) or the service itself threw (`E_FAILED`, or the `ServiceError` it threw).
    /// Kept apart so a service that throws a `DecodingError` about its own data is not blamed
    /// on the caller.
    enum StartFailure: Error {
        case parameters(any Error)
        case service(any Error)
    }

    /// The time a caller waits for an async service when neither the service nor the script
    /// says otherwise: 30 seconds.
    public static let standardTimeout: Double = 30

    // MARK: Registering

    /// Registers a synchronous service (callable with `hybrid.callSync` too). A later
    /// registration under the same name replaces the earlier one.
    ///
    /// - Parameter timeout: see `ServiceDescription.timeout`. A sync service runs to the end on
    ///   the caller's thread and cannot be cut off, so the default is `nil`.
    public func register<Params: Decodable & Sendable, Result: Encodable & Sendable>(
        _ name: String, permission: String? = nil, summary: String? = nil, timeout: Double? = nil,
        _ body: @escaping @Sendable (Params) throws -> Result
    ) {
        add(name, Params.self, isSync: true, permission: permission, summary: summary, timeout: timeout) { parameters, fields throws(StartFailure) in
            let decoded = try Self.decode(Params.self, from: parameters, fields: fields)
            do {
                return .finished(try body(decoded))
            } catch {
                throw .service(error)
            }
        }
    }

    /// Registers an asynchronous service. A later registration under the same name replaces
    /// the earlier one. Scripts' calls start `body` at once on the JavaScript thread, so what it
    /// does before its first `await` holds up the scripts; the rest runs off that thread.
    ///
    /// - Parameter timeout: how long a caller waits when the script gives no `timeout` (see
    ///   `ServiceDescription.timeout`); `nil` for a service that bounds its own time.
    public func register<Params: Decodable & Sendable, Result: Encodable & Sendable>(
        _ name: String, permission: String? = nil, summary: String? = nil, timeout: Double? = ServiceRegistry.standardTimeout,
        _ body: @escaping @Sendable (Params) async throws -> Result
    ) {
        add(name, Params.self, isSync: false, permission: permission, summary: summary, timeout: timeout) { parameters, fields throws(StartFailure) in
            let decoded = try Self.decode(Params.self, from: parameters, fields: fields)
            // Whatever the body throws surfaces when the job runs, through `failure(_:in:)`.
            return .running({ try await body(decoded) }, timeout: timeout)
        }
    }

    /// What an asynchronous service registered with `register(_:answering:)` gives back.
    public enum Answer<Result: Encodable & Sendable>: Sendable {
        /// An answer at once: the caller gets it with no hop to a task and back.
        case now(Result)
        /// Work to run for the answer.
        case later(@Sendable () async throws -> Result)
    }

    /// Registers an asynchronous service that can sometimes answer at once (a cache hit): its
    /// `body` runs on the caller's thread, as a sync service's does, and says which. Callers see
    /// an asynchronous service either way (`hybrid.callSync` refuses it).
    public func register<Params: Decodable & Sendable, Result: Encodable & Sendable>(
        _ name: String, permission: String? = nil, summary: String? = nil, timeout: Double? = ServiceRegistry.standardTimeout,
        answering body: @escaping @Sendable (Params) throws -> Answer<Result>
    ) {
        add(name, Params.self, isSync: false, permission: permission, summary: summary, timeout: timeout) { parameters, fields throws(StartFailure) in
            let decoded = try Self.decode(Params.self, from: parameters, fields: fields)
            do {
                switch try body(decoded) {
                case .now(let result): return .finished(result)
                case .later(let job): return .running({ try await job() }, timeout: timeout)
                }
            } catch {
                throw .service(error)
            }
        }
    }

    /// Decodes a call's parameters, as a step of its own: every error here is the caller's.
    private static func decode<Params: Decodable>(_ type: Params.Type, from parameters: any ServiceParameters,
                                                  fields: [String]) throws(StartFailure) -> Params {
        do {
            return try parameters.decode(type, fields: fields)
        } catch {
            throw .parameters(error)
        }
    }

    private func add<Params: Decodable>(_ name: String, _ type: Params.Type, isSync: Bool, permission: String?, summary: String?, timeout: Double?,
                                        start: @escaping @Sendable (any ServiceParameters, _ fieldNames: [String]) throws(StartFailure) -> Invocation) {
        precondition(ServiceName.isValid(name), "service names are domain.verb, like \"cart.add\"; got \"\(name)\"")
        precondition(timeout.map { $0 > 0 } ?? true, "\(name): a timeout is a number of seconds above 0")
        let probe = ParameterProbe.describe(type)
        let description = ServiceDescription(name: name, isSync: isSync, permission: permission, parameters: probe.parameters,
                                             summary: summary, timeout: timeout)
        let entry = Entry(description: description, fieldNames: probe.parameters.map(\.name), acceptsAnyFields: !probe.isKeyed, start: start)
        state.withLock { state in
            state.entries[name] = entry
            changes.add(1, ordering: .releasing)
        }
    }

    /// Removes the service `name`, if there is one (a bundle's own service goes with the bundle).
    public func unregister(_ name: String) {
        state.withLock { state in
            guard state.entries.removeValue(forKey: name) != nil else { return }
            changes.add(1, ordering: .releasing)
        }
    }

    /// Counts registrations, so a caller that cached parameter names knows when to drop them.
    public var generation: Int { changes.load(ordering: .acquiring) }

    /// The parameter names a service accepts, or nil when it takes any fields (or does not exist).
    public func fieldNames(of name: String) -> [String]? {
        state.withLock { $0.entries[name].flatMap { $0.acceptsAnyFields ? nil : $0.fieldNames } }
    }

    // MARK: Looking up

    /// Every service, sorted by name.
    public var descriptions: [ServiceDescription] {
        state.withLock { $0.entries.values.map(\.description) }.sorted { $0.name < $1.name }
    }

    /// The description of one service.
    public func description(of name: String) -> ServiceDescription? {
        state.withLock { $0.entries[name]?.description }
    }

    // MARK: Calling

    /// The service `name` as found now, to start without looking it up again: a caller that
    /// calls the same services again and again (the bridge) keeps these while `generation`
    /// stays `lookup.generation`.
    public struct Lookup: Sendable {
        /// The service's name.
        public let name: String
        /// The registry's `generation` when it was found.
        public let generation: Int
        fileprivate let entry: Entry?
    }

    /// Finds the service `name` (or finds that there is none).
    public func lookUp(_ name: String) -> Lookup {
        // Read before the entry: a registration in between makes the lookup look stale, never fresh.
        let generation = self.generation
        return Lookup(name: name, generation: generation, entry: state.withLock { $0.entries[name] })
    }

    /// Checks the call and starts it: the service exists, the caller may use it, the
    /// parameters fit. Sync services run to completion here.
    public func start(_ name: String, parameters: any ServiceParameters, caller: ServiceCaller,
                      requireSync: Bool = false) -> Swift.Result<Invocation, ServiceError> {
        start(lookUp(name), parameters: parameters, caller: caller, requireSync: requireSync)
    }

    /// `start(_:parameters:caller:requireSync:)` of a service found earlier (found again when
    /// the registry changed since).
    public func start(_ lookup: Lookup, parameters: any ServiceParameters, caller: ServiceCaller,
                      requireSync: Bool = false) -> Swift.Result<Invocation, ServiceError> {
        guard lookup.generation == generation else {
            return start(found: lookUp(lookup.name), parameters: parameters, caller: caller, requireSync: requireSync)
        }
        return start(found: lookup, parameters: parameters, caller: caller, requireSync: requireSync)
    }

    private func start(found lookup: Lookup, parameters: any ServiceParameters, caller: ServiceCaller,
                       requireSync: Bool) -> Swift.Result<Invocation, ServiceError> {
        guard lookup.entry != nil else {
            let hint = Suggestion.hint(for: lookup.name, in: state.withLock { Array($0.entries.keys) })
            return .failure(ServiceError(.noService, "no service named \"\(lookup.name)\"" + hint))
        }
        // Passed on rather than bound here: an argument is borrowed, a binding is a retained copy.
        return start(lookup.entry.unsafelyUnwrapped, named: lookup.name, parameters: parameters, caller: caller, requireSync: requireSync)
    }

    private func start(_ entry: Entry, named name: String, parameters: any ServiceParameters, caller: ServiceCaller,
                       requireSync: Bool) -> Swift.Result<Invocation, ServiceError> {
        guard caller.isGranted(entry.permission) else {
            return .failure(ServiceError(.denied, "\(name) needs the permission \"\(entry.permission!)\", which \(caller.name) was not granted"))
        }
        if requireSync && !entry.isSync {
            return .failure(ServiceError(.failed, "\(name) is asynchronous; call it with hybrid.call"))
        }
        if !entry.acceptsAnyFields {
            guard parameters.isObject else {
                return .failure(ServiceError(.badParams, "\(name): expected an object of parameters, got \(parameters.kindDescription)"))
            }
            let known = entry.fieldNames
            if let unknown = parameters.unknownField(among: known) {
                let hint = Suggestion.hint(for: unknown, in: known)
                let list = known.isEmpty ? "it takes none" : "it takes " + known.map { "\"\($0)\"" }.joined(separator: ", ")
                return .failure(ServiceError(.badParams, "\(name): unknown field \"\(unknown)\"\(hint) (\(list))"))
            }
        }
        do throws(StartFailure) {
            return .success(try entry.start(parameters, entry.fieldNames))
        } catch {
            switch error {
            case .parameters(let error as DecodingError):
                let (field, message) = describeDecodingError(error)
                let location = field.map { $0.isEmpty ? "" : "field \"\($0)\": " } ?? ""
                return .failure(ServiceError(.badParams, "\(name): \(location)\(message)"))
            case .parameters(let error as ServiceError):
                return .failure(error)
            case .parameters(let error):
                return .failure(ServiceError(.badParams, "\(name): \(error)"))
            case .service(let error):
                return .failure(Self.failure(error, in: name))
            }
        }
    }

    /// The `ServiceError` for an error a service threw.
    public static func failure(_ error: any Error, in name: String) -> ServiceError {
        if let error = error as? ServiceError { return error }
        return ServiceError(.failed, "\(name) failed: \(error)")
    }

    /// Calls a service with JSON parameters and waits for its JSON answer (Swift hosts and
    /// tests use this; scripts go through the bridge).
    public func call(_ name: String, parameters: JSONValue = .null, caller: ServiceCaller = .host) async -> Swift.Result<JSONValue, ServiceError> {
        await Self.finish(start(name, parameters: parameters, caller: caller), of: name)
    }

    /// The JSON answer of a call of `name` that `start` began: a sync service's value, or an
    /// async one's job run to its end. (A caller that owns a thread starts calls there, so sync
    /// services run on it, and waits for the answer elsewhere.)
    public static func finish(_ started: Swift.Result<Invocation, ServiceError>, of name: String) async -> Swift.Result<JSONValue, ServiceError> {
        switch started {
        case .failure(let error):
            return .failure(error)
        case .success(.finished(let value)):
            return Self.encode(value, from: name)
        case .success(.running(let job, _)):
            do {
                return Self.encode(try await job(), from: name)
            } catch {
                return .failure(Self.failure(error, in: name))
            }
        }
    }

    /// A service's answer as JSON, or `E_FAILED` when it cannot be encoded (a non-finite
    /// number, say): the one place that turns what a service returned into what a caller sees.
    public static func encode(_ value: any Encodable, from name: String) -> Swift.Result<JSONValue, ServiceError> {
        if let json = JSONValueEncoder.bare(value) { return .success(json) }
        do {
            return .success(try JSONValueEncoder().encode(value))
        } catch {
            return .failure(ServiceError(.failed, "\(name) returned a value that cannot be sent to scripts: \(error)"))
        }
    }
}
