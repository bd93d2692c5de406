import HybridFiles
import HybridJSON

/// A bundle's file of API definitions (SPEC §7.1, the manifest's `apis`): the services it talks
/// to and each API — one per endpoint, the seeds' "API manager" written as data — with its
/// params, cache, in-flight policy, retries, paging and offline behaviour. Decoded once, checked
/// whole: every problem is reported located, like a screen's.
public struct APIDefinitions: Sendable, Equatable {
    /// Services by name: where requests go and how they are made.
    public var services: [String: Service]
    /// APIs by name (`items.list`).
    public var apis: [String: API]

    /// Definitions from their parts (tests and tools that write them).
    public init(services: [String: Service] = [:], apis: [String: API] = [:]) {
        self.services = services
        self.apis = apis
    }

    /// A server the APIs call.
    public struct Service: Sendable, Equatable {
        /// The absolute `http` or `https` URL paths are appended to.
        public var baseURL: String
        /// Seconds a request may take, start to end (default 30).
        public var timeout: Double
        /// Headers sent with every request.
        public var headers: [String: String]
        /// The name of the host's secret that signs every request, when requests are signed.
        public var signingSecret: String?
    }

    /// One endpoint.
    public struct API: Sendable, Equatable {
        /// The service it calls.
        public var service: String
        /// `GET`, `POST`, `PUT`, `PATCH`, `DELETE` or `HEAD`.
        public var method: String
        /// The path after the service's `baseURL`; `{name}` takes the param `name`.
        public var path: String
        /// The params a call may pass, by name.
        public var params: [String: ParamRule]
        /// How answers are kept, when they are.
        public var cache: Cache?
        /// What a call does while another of this API is in flight.
        public var inFlight: InFlight
        /// When a failed attempt is tried again.
        public var retry: Retry?
        /// How pages are asked for and found in answers.
        public var paging: Paging?
        /// What a call does when the host cannot be reached.
        public var offline: Offline
        /// Whether a call may be sent twice with no harm (retries of POST and PATCH need it).
        public var idempotent: Bool

        /// The names of the `{name}` placeholders of `path`, in order.
        public var pathParams: [String] { APIDefinitions.placeholders(in: path) }
    }

    /// How answers are cached.
    public struct Cache: Sendable, Equatable {
        /// Seconds an answer stays fresh.
        public var ttl: Double
        /// Where answers are kept.
        public var store: Store
        /// Whether a stale answer stands in when a call fails.
        public var staleIfError: Bool

        /// In memory (for the app's run) or on disk (across runs).
        public enum Store: String, Sendable, CaseIterable { case memory, disk }
    }

    /// What a call does while another call of the same API is in flight.
    public enum InFlight: String, Sendable, CaseIterable {
        /// Both are sent.
        case parallel
        /// A call with the same params shares the answer of the one in flight.
        case dedupe
        /// The new call is refused (`E_DUPLICATE`).
        case ignoreNew
        /// The call in flight is cancelled (`E_CANCELLED`) and the new one sent.
        case cancelPrevious
    }

    /// Retries of failed attempts, with exponential backoff.
    public struct Retry: Sendable, Equatable {
        /// How many more attempts at most.
        public var count: Int
        /// HTTP statuses that are retried.
        public var statuses: Set<Int>
        /// Error codes that are retried (`E_TIMEOUT`, `E_OFFLINE`).
        public var codes: Set<String>
        /// Milliseconds before the first retry, doubling for each next one.
        public var backoff: Double

        /// The error codes `on` may name.
        public static let retriableCodes = ["E_TIMEOUT", "E_OFFLINE", "E_FAILED"]
    }

    /// Paging: the page param and where a page's items are in an answer.
    public struct Paging: Sendable, Equatable {
        /// The integer param holding the page number (the first page is 1).
        public var param: String
        /// The dotted path of the items array in an answer (`""` for the answer itself).
        public var items: String
    }

    /// What a call does when the host cannot be reached.
    public enum Offline: String, Sendable, CaseIterable {
        /// It fails with `E_OFFLINE`.
        case fail
        /// It goes into the outbox, sent later in order.
        case queue
    }

    /// The HTTP methods an API may use.
    public static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]

    /// Whether the API `name` is one `pattern` names: `*` every API, `shop.*` every API whose
    /// name starts with `shop.`, else that name only.
    public static func name(_ name: String, matches pattern: String) -> Bool {
        if pattern == "*" { return true }
        if pattern.hasSuffix(".*") { return name.hasPrefix(pattern.dropLast()) }
        return name == pattern
    }

    /// The names of the `{name}` placeholders of `path`, in order.
    static func placeholders(in path: String) -> [String] {
        var names: [String] = []
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Decodes definitions from `source`, reporting every problem located.
    public static func load(_ source: SourceText) -> Loaded<APIDefinitions> {
        let json: SourceJSON
        do {
            json = try JSONParser.parse(source.bytes)
        } catch {
            return Loaded(value: nil, diagnostics: [Diagnostic(offset: error.offset, path: "$", message: "invalid JSON: " + error.message)],
                          source: source)
        }
        var decoder = APIDefinitionsDecoder()
        let definitions = decoder.definitions(json)
        // Stable sort: problems at one offset keep the order they were found in.
        let diagnostics = decoder.diagnostics.enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        let hasErrors = diagnostics.contains { $0.severity == .error }
        return Loaded(value: hasErrors ? nil : definitions, diagnostics: diagnostics, source: source)
    }

    /// `load(_:)` of the file at `path`, named `displayName` (else `path`) in messages; a file
    /// that cannot be read is reported at `$`.
    public static func load(contentsOf path: String, displayName: String? = nil) -> Loaded<APIDefinitions> {
        let name = displayName ?? path
        do {
            return load(SourceText(name: name, bytes: try FileBytes.contents(of: path)))
        } catch {
            return Loaded(value: nil, diagnostics: [Diagnostic(offset: 0, path: "$", message: "cannot read the file: " + error.reason)],
                          source: SourceText(name: name, bytes: []))
        }
    }
}
