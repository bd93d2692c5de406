import Foundation
import HybridJSON

/// Walks a file of API definitions, building `APIDefinitions` and collecting every problem with
/// its JSON path: unknown fields (with a did-you-mean), wrong kinds, an API naming no declared
/// service, a `{name}` in a path with no such param, a default that breaks its own rule.
struct APIDefinitionsDecoder: LocatingDecoder {
    var diagnostics: [Diagnostic] = []
    var path = JSONPath()

    static let fields = ["$schema", "services", "apis"]
    static let serviceFields = ["baseURL", "timeout", "headers", "sign"]
    static let apiFields = ["service", "method", "path", "params", "cache", "inFlight", "retry", "paging", "offline", "idempotent"]
    static let paramFields = ["type", "required", "default", "enum", "minimum", "maximum", "minLength", "maxLength", "pattern"]

    /// The longest a request may be given, in seconds (a day, as `net.request`).
    static let maximumTimeout = 86_400.0

    mutating func definitions(_ json: SourceJSON) -> APIDefinitions {
        guard let members = json.members else {
            report("expected an object with \"services\" and \"apis\", got \(json.kindDescription)", at: json.offset)
            return APIDefinitions()
        }
        checkFields(members, allowed: Self.fields, owner: "the API definitions")
        var definitions = APIDefinitions()
        if let services = json["services"] {
            definitions.services = inKey("services") { $0.named(services, what: "services") { $0.service($1) } }
        }
        if let apis = json["apis"] {
            // Every service written counts as declared: one with a broken field is reported
            // there, not again as unknown in each API that names it.
            let services = json["services"]?.members.map { $0.map(\.key) } ?? []
            definitions.apis = inKey("apis") { $0.named(apis, what: "APIs") { $0.api($1, services: services) } }
        } else {
            report("missing required field \"apis\"", at: json.offset)
        }
        return definitions
    }

    /// An object of named entries, each decoded under its name; names must look like
    /// `shop` (services) or `items.list` (APIs).
    private mutating func named<T>(_ json: SourceJSON, what: String, _ decode: (inout Self, SourceJSON) -> T?) -> [String: T] {
        guard let members = json.members else {
            report("expected an object of \(what) by name, got \(json.kindDescription)", at: json.offset)
            return [:]
        }
        var result: [String: T] = [:]
        let repeated = members.repeatedKeys()
        for position in members.indices {
            let member = members[position]
            inKey(member.key) { decoder in
                if repeated.contains(position) {
                    decoder.report("duplicate name \(DiagnosticText.quoted(member.key))", at: member.keyOffset)
                    return
                }
                let valid = what == "APIs" ? ServiceName.isValid(member.key) : Self.isWord(member.key)
                if !valid {
                    let shape = what == "APIs" ? "dotted names like \"items.list\"" : "a name like \"shop\""
                    decoder.report("\(DiagnosticText.quoted(member.key)) is not a usable name (\(shape))", at: member.keyOffset)
                }
                if let value = decode(&decoder, member.value), valid { result[member.key] = value }
            }
        }
        return result
    }

    private static func isWord(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
    }

    // MARK: Services

    private mutating func service(_ json: SourceJSON) -> APIDefinitions.Service? {
        guard let members = json.members else {
            report("expected a service (an object with \"baseURL\"), got \(json.kindDescription)", at: json.offset)
            return nil
        }
        checkFields(members, allowed: Self.serviceFields, owner: "a service")
        let baseURL = required(json, "baseURL") { $0.baseURL($1) }
        let timeout = json["timeout"].flatMap { value in inKey("timeout") { $0.seconds(value, maximum: Self.maximumTimeout) } } ?? 30
        let headers = json["headers"].flatMap { value in inKey("headers") { $0.headers(value) } } ?? [:]
        let secret = json["sign"].flatMap { value in inKey("sign") { $0.signing(value) } }
        guard let baseURL else { return nil }
        return APIDefinitions.Service(baseURL: baseURL, timeout: timeout, headers: headers, signingSecret: secret)
    }

    private mutating func baseURL(_ json: SourceJSON) -> String? {
        guard let text = plainString(json) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil,
              url.query == nil else {
            report("expected an absolute http or https URL without a query, got \(DiagnosticText.quoted(text))", at: json.offset)
            return nil
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    private mutating func headers(_ json: SourceJSON) -> [String: String]? {
        guard let members = json.members else {
            report("expected an object of header names to strings, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        var headers: [String: String] = [:]
        for member in members {
            inKey(member.key) { decoder in
                guard let value = decoder.plainString(member.value) else { return }
                let name = member.key
                guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }),
                      !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                    decoder.report("\(DiagnosticText.quoted(name)) is not a usable header (a token name and a one-line value)", at: member.keyOffset)
                    return
                }
                headers[name] = value
            }
        }
        return headers
    }

    private mutating func signing(_ json: SourceJSON) -> String? {
        guard let members = json.members else {
            report("expected {\"secret\": NAME}, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        checkFields(members, allowed: ["secret"], owner: "\"sign\"")
        return required(json, "secret") { decoder, value in
            guard let name = decoder.plainString(value), !name.isEmpty else {
                if value.stringValue != nil { decoder.report("expected the name of a secret the host supplies, got \"\"", at: value.offset) }
                return nil
            }
            return name
        }
    }

    // MARK: APIs

    private mutating func api(_ json: SourceJSON, services: [String]) -> APIDefinitions.API? {
        guard let members = json.members else {
            report("expected an API (an object with \"service\" and \"path\"), got \(json.kindDescription)", at: json.offset)
            return nil
        }
        checkFields(members, allowed: Self.apiFields, owner: "an API")
        let service = required(json, "service") { decoder, value -> String? in
            guard let name = decoder.plainString(value) else { return nil }
            guard services.contains(name) else {
                let known = services.sorted()
                let listed = known.isEmpty ? "no services are declared" : "the services are " + known.map { "\"\($0)\"" }.joined(separator: ", ")
                decoder.report("unknown service \(DiagnosticText.quoted(name)) (\(listed))\(Suggestion.hint(for: name, in: known))", at: value.offset)
                return nil
            }
            return name
        }
        let method = json["method"].flatMap { value in inKey("method") { $0.oneOf(value, APIDefinitions.methods, what: "an HTTP method") } } ?? "GET"
        let apiPath = required(json, "path") { $0.requestPath($1) }
        let params = json["params"].flatMap { value in inKey("params") { $0.params(value) } } ?? [:]
        let cache = json["cache"].flatMap { value in inKey("cache") { $0.cache(value) } }
        let inFlight = json["inFlight"].flatMap { value in inKey("inFlight") { $0.choice(value, APIDefinitions.InFlight.self) } } ?? .parallel
        let retry = json["retry"].flatMap { value in inKey("retry") { $0.retry(value) } }
        let declared = json["params"]?.members.map { $0.map(\.key) } ?? []
        let paging = json["paging"].flatMap { value in inKey("paging") { $0.paging(value, params: params, declared: declared) } }
        let offline = json["offline"].flatMap { value in inKey("offline") { $0.choice(value, APIDefinitions.Offline.self) } } ?? .fail
        let idempotent = json["idempotent"].flatMap { value in inKey("idempotent") { $0.flag(value) } } ?? false
        if let apiPath, let pathJSON = json["path"] {
            for name in APIDefinitions.placeholders(in: apiPath) where !declared.contains(name) {
                let hint = Suggestion.hint(for: name, in: declared)
                inKey("path") { $0.report("{\(name)} names no param of this API (declare it in \"params\")\(hint)", at: pathJSON.offset) }
            }
        }
        guard let service, let apiPath else { return nil }
        return APIDefinitions.API(service: service, method: method, path: apiPath, params: params, cache: cache, inFlight: inFlight,
                                  retry: retry, paging: paging, offline: offline, idempotent: idempotent)
    }

    private mutating func requestPath(_ json: SourceJSON) -> String? {
        guard let text = plainString(json) else { return nil }
        guard text.hasPrefix("/"), !text.contains("?"), !text.contains("#"), !text.contains(" ") else {
            report("expected a path starting with \"/\" (no query, no spaces), got \(DiagnosticText.quoted(text))", at: json.offset)
            return nil
        }
        let opens = text.filter { $0 == "{" }.count, closes = text.filter { $0 == "}" }.count
        let names = APIDefinitions.placeholders(in: text)
        guard opens == closes, opens == names.count, names.allSatisfy({ !$0.isEmpty && !$0.contains("{") }) else {
            report("unbalanced {…} in \(DiagnosticText.quoted(text))", at: json.offset)
            return nil
        }
        return text
    }
}
