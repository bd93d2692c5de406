import HybridBundles
import HybridJSON
import HybridNetwork
import HybridServices

/// A bundle's APIs as the `api.*` services scripts reach through the `api` global (SPEC §7.2):
/// its definitions file decoded when the bundle loads (a broken one fails the start, located)
/// and an `APIClient` behind the services, with the permission `api`.
public enum BundleAPIs {
    /// The `api.call` message: the API, its params, a timeout in seconds, the cache mode.
    struct Call: Decodable, Sendable {
        var name: String
        var params: JSONValue?
        var timeout: Double?
        var cache: APIClient.CacheMode?
    }

    /// The service scripts' `api.call` reaches.
    static let serviceName = "api.call"
    /// Every service a bundle's APIs bring.
    static let serviceNames = [serviceName, "api.invalidate", "api.cancel", "api.paging", "api.flush", "api.outbox"]

    /// An `api.invalidate` or `api.cancel` message: which APIs.
    struct Pattern: Decodable, Sendable {
        var pattern: String
    }

    /// An `api.paging` message: which API.
    struct Named: Decodable, Sendable {
        var name: String
    }

    /// Registers `api.call` for `folder`'s definitions, when its manifest names some (and
    /// removes the one an earlier bundle left, when it names none); disk cache entries go in
    /// `cacheFolder`, queued calls in `outboxFolder`, and what is damaged or dropped is told to
    /// `report`.
    static func register(for folder: BundleFolder, secrets: [String: String], cacheFolder: String, outboxFolder: String?,
                         trace: (@Sendable (String) -> Void)?, report: @escaping @Sendable (String) -> Void,
                         in services: ServiceRegistry) throws(AppError) {
        guard let relative = folder.manifest.apis else { return serviceNames.forEach(services.unregister) }
        guard let path = folder.filePath(for: relative) else { throw AppError("\(folder.path): the apis file \"\(relative)\" is not a usable path") }
        let load = APIDefinitions.load(contentsOf: path)
        guard let definitions = load.value, !load.hasErrors else {
            throw AppError(load.formattedDiagnostics.joined(separator: "\n"))
        }
        let client = APIClient(definitions: definitions, secrets: secrets, cache: AnswerCache(folder: cacheFolder, report: report),
                               outbox: Outbox(folder: outboxFolder, report: report), trace: trace, report: report)
        register(client, in: services)
    }

    /// Registers the `api.*` services over `client` (what a bundle with `apis` gets; a host or a
    /// benchmark with definitions of its own may call it directly).
    public static func register(_ client: APIClient, in services: ServiceRegistry) {
        let definitions = client.definitions
        // A fresh kept answer comes back at once, and the rest boards its flight at once, so
        // in-flight policies see calls in the order scripts made them. The client bounds each
        // request by its service's timeout; the registry adds none.
        services.register(serviceName, permission: "api", summary: "calls an API the bundle declares",
                          timeout: nil) { (call: Call) throws -> ServiceRegistry.Answer<JSONValue> in
            let start: APIClient.Start
            do throws(CallError) {
                start = try client.start(call.name, params: call.params ?? .null, timeout: call.timeout, cacheMode: call.cache ?? .default)
            } catch {
                throw serviceError(error)
            }
            switch start {
            case .answered(let answer):
                return .now(answer)
            case .pending(let job):
                return .later {
                    do throws(CallError) {
                        return try await job()
                    } catch {
                        throw serviceError(error)
                    }
                }
            }
        }
        services.register("api.invalidate", permission: "api", summary: "forgets the kept answers of APIs (name, shop.* or *)") { (request: Pattern) -> JSONValue in
            client.invalidate(request.pattern)
            return .null
        }
        services.register("api.cancel", permission: "api", summary: "cancels the calls in flight of APIs (name, shop.* or *)") { (request: Pattern) -> JSONValue in
            client.cancel(request.pattern)
            return .null
        }
        services.register("api.flush", permission: "api", summary: "sends the outbox's queued calls in order: {sent, dropped, left}",
                          timeout: nil) { (_: JSONValue) async -> JSONValue in
            await client.flush()
        }
        services.register("api.outbox", permission: "api", summary: "the queued calls, oldest first") { (_: JSONValue) -> JSONValue in
            .array(client.outbox.map(\.json))
        }
        // What `api.manager` pages by: the page param and where a page's items are.
        services.register("api.paging", permission: "api", summary: "how an API pages: {param, items}, or null") { (request: Named) -> JSONValue in
            guard let paging = definitions.apis[request.name]?.paging else { return .null }
            return .object(JSONObject([("param", .string(paging.param)), ("items", .string(paging.items))]))
        }
    }

    /// A call's failure as the service error scripts get (its code, message and details).
    private static func serviceError(_ error: CallError) -> ServiceError {
        ServiceError(ServiceError.Code(rawValue: error.code) ?? .failed, error.message, details: error.details)
    }
}
