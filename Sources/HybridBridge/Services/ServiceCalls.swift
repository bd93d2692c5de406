import CJavaScriptCore
import HybridEventLoop
import HybridJSON
import HybridJavaScript
import HybridServices

/// The Swift half of `hybrid.call`, `hybrid.callSync` and `hybrid.services` (the prelude's
/// half builds the promises and errors): checks and starts calls in the registry, answers sync
/// services at once and settles async ones from the loop. Loop thread only.
final class ServiceCalls {
    /// The services scripts may call.
    let services: ServiceRegistry
    /// Who the scripts are, for permission checks.
    var caller: ServiceCaller
    /// Called when the prelude checked field names against an older registry, so it drops its
    /// cache of them.
    var onStaleFields: () -> Void = {}

    private let entries: ScriptEntries
    private let pending: PendingCalls
    /// Who the calls started now belong to (the screen whose handler runs), nil for nobody.
    var owner: ObjectIdentifier?
    private let decoder: JSValueDecoder
    private let names: RecentStrings
    /// The services scripts called lately, found at the registry generation `lookupsGeneration`
    /// (a registration since drops them all); as many as `names` keeps.
    // Looked at on every call: no exclusivity checks (never touched from two places at once).
    @exclusivity(unchecked) private var lookups: [ServiceRegistry.Lookup] = []
    private var lookupsGeneration = -1

    init(services: ServiceRegistry, caller: ServiceCaller, entries: ScriptEntries, loop: EventLoop) {
        self.services = services
        self.caller = caller
        self.entries = entries
        pending = PendingCalls(loop: loop)
        decoder = JSValueDecoder(context: entries.context)
        names = RecentStrings(context: entries.context)
    }

    /// Starts the service `name` with `parameters`; returns the answer of a sync service (or an
    /// async one that answered without waiting), or nil when `resolve(value)` or
    /// `reject(code, message, details)` will be called from the loop. `timeout`
    /// is the script's, in milliseconds (negative or NaN: the service's own); `checkedAt` is
    /// the registry generation at which the prelude found the field names known, or -1, and
    /// then `fieldValues` are the values of those fields it read, in the order of `fields`.
    /// - Returns: the answer, or the number of the call in flight (for `cancel(id:)`).
    func call(_ service: ServiceRegistry.Lookup, parameters: JavaScriptValue, checkedAt: Double, fieldValues: UnsafeBufferPointer<JSValueRef?>,
              timeout: Double, resolve: JavaScriptValue, reject: JavaScriptValue) throws(ServiceError) -> Started {
        let started = withParameters(parameters, checkedAt: checkedAt, fieldValues: fieldValues) { parameters in
            pending.call(service, parameters: parameters, caller: caller, in: services, timeout: timeout >= 0 ? timeout / 1000 : nil,
                         owner: owner) { settlement(of: service.name, resolve: resolve, reject: reject) }
        }
        switch started {
        case .answered(let result): return .answered(try result.get())
        case .inFlight(let id): return .inFlight(id)
        }
    }

    /// What settles a call of `name` in flight: its answer goes to `resolve`, its failure to
    /// `reject` (each kept from collection until then), in an entry of its own.
    private func settlement(of name: String, resolve: JavaScriptValue, reject: JavaScriptValue) -> (Result<JSONValue, ServiceError>) -> Void {
        let resolve = resolve.protect()
        let reject = reject.protect()
        return { [entries] outcome in
            entries.enter("the answer of \(name)") { (context) throws(ScriptError) in
                switch outcome {
                case .success(let value):
                    try resolve.value.call(making: [{ context.makeValue(value) }])
                case .failure(let error):
                    try reject.value.call(making: [{ context.makeString(error.code.rawValue) }, { context.makeString(error.message) },
                                                   { context.makeValue(error.details.map(JSONValue.object) ?? .null) }])
                }
            }
        }
    }

    /// The service a script named with `value`: its name made a Swift string once, and the
    /// service looked up once while the registry stays as it was.
    func service(_ value: JavaScriptValue) -> ServiceRegistry.Lookup {
        let name = names.string(of: value)
        let generation = services.generation
        if generation != lookupsGeneration {
            lookups.removeAll(keepingCapacity: true)
            lookupsGeneration = generation
        } else if let lookup = lookups.first(where: { $0.name == name }) {
            return lookup
        }
        let lookup = services.lookUp(name)
        if lookups.count == RecentStrings.capacity { lookups.removeFirst() }
        lookups.append(lookup)
        return lookup
    }

    /// What `call` did: answered at once, or started the call numbered `id`.
    enum Started {
        case answered(JSONValue)
        case inFlight(Int)
    }

    /// Drops the call in flight numbered `id`: its work is cancelled, its promise left to the
    /// script (which rejects it with its signal's reason).
    func cancel(id: Int) {
        pending.cancel(id: id)
    }

    /// Runs the sync `service` and returns its answer (`checkedAt` and `fieldValues` as for
    /// `call`).
    func callSync(_ service: ServiceRegistry.Lookup, parameters: JavaScriptValue, checkedAt: Double,
                  fieldValues: UnsafeBufferPointer<JSValueRef?>) throws(ServiceError) -> JSONValue {
        let started = withParameters(parameters, checkedAt: checkedAt, fieldValues: fieldValues) { parameters in
            services.start(service, parameters: parameters, caller: caller, requireSync: true)
        }
        switch started {
        case .success(.finished(let value)): return try ServiceRegistry.encode(value, from: service.name).get()
        // `requireSync` refuses async services before they start.
        case .success(.running): return .null
        case .failure(let error): throw error
        }
    }

    /// The field names the service `name` accepts (`null` when any, or no such service), with
    /// the registry generation they belong to: `{generation, fields}`.
    func fields(of name: String) -> JSONValue {
        let generation = services.generation
        let fields = services.fieldNames(of: name).map { JSONValue.array($0.map(JSONValue.string)) } ?? .null
        return .object(JSONObject([("generation", .integer(generation)), ("fields", fields)]))
    }

    /// Every service's description, as `hybrid.services()` lists them.
    var descriptions: JSONValue {
        .array(services.descriptions.map(\.json))
    }

    /// Drops the async calls in flight (their work is cancelled, their promises never settle).
    /// Cancels the calls whose owner is not in `owners`.
    func cancel(keepingOwners owners: Set<ObjectIdentifier>) {
        pending.cancel(keepingOwners: owners)
    }

    func cancelAll() {
        pending.cancelAll()
    }

    /// Runs `body` with the parameters a script passed. A check made at an older generation is
    /// ignored, and the prelude told to drop its cache.
    private func withParameters<Result>(_ value: JavaScriptValue, checkedAt: Double, fieldValues: UnsafeBufferPointer<JSValueRef?>,
                                        _ body: (ScriptParameters) -> Result) -> Result {
        var checked = false
        if checkedAt >= 0 {
            checked = Int(exactly: checkedAt) == services.generation
            if !checked { onStaleFields() }
        }
        return ScriptParameters.with(value, decoder: decoder, fieldValues: checked ? fieldValues : nil, body)
    }
}
