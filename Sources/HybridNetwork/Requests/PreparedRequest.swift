import Foundation
import HybridJSON

/// A call of an API made ready to send (SPEC §7.1): its params checked against the definition,
/// defaults applied, the path filled in, the rest put in the query (GET, HEAD, DELETE) or a
/// JSON body, and the key its answer is cached under. Nothing is sent for a call that fails
/// here: the error names the param.
public struct PreparedRequest: Sendable, Equatable {
    /// The API's name.
    public var api: String
    /// The HTTP method.
    public var method: String
    /// The service's base URL.
    public var baseURL: String
    /// The path as sent: the definition's, each `{name}` replaced by its percent-encoded value.
    public var path: String
    /// The query pairs, sorted by name then value (the canonical order signing uses too).
    public var query: [(name: String, value: String)]
    /// The JSON body, for methods that carry one.
    public var body: [UInt8]?
    /// The params as the call uses them: defaults applied, in canonical form.
    public var params: JSONValue
    /// `API\u{0}CANONICAL-PARAMS`: `{a:1,b:2}` and `{b:2,a:1}` are one key.
    public var cacheKey: String

    /// The query as sent: `name=value` pairs joined with `&`, RFC 3986 percent-encoded.
    public var queryText: String {
        query.map { Self.percentEncoded($0.name) + "=" + Self.percentEncoded($0.value) }.joined(separator: "&")
    }

    /// The path the server sees: the base URL's own path, then `path` (what signing covers).
    public var sentPath: String {
        (URLComponents(string: baseURL)?.percentEncodedPath ?? "") + path
    }

    /// The whole URL.
    public var url: String {
        baseURL + path + (query.isEmpty ? "" : "?" + queryText)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.api == rhs.api && lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body && lhs.cacheKey == rhs.cacheKey
    }

    /// What RFC 3986 leaves as it is: letters, digits and `-._~`.
    static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// `text` with everything but unreserved characters percent-encoded (UTF-8).
    public static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}

/// Why a call cannot be made: one of SPEC §3 and §7.2's error codes and a message naming what.
public struct CallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `E_NO_SERVICE`, `E_BAD_PARAMS`, …
    public var code: String
    /// What is wrong, naming the API and the param.
    public var message: String
    /// More for the script's error object (an `E_HTTP`'s `status` and `data`, the `requestId`).
    public var details: JSONObject?

    /// An error with `code`, `message` and, when given, `details`.
    public init(code: String, message: String, details: JSONObject? = nil) {
        self.code = code
        self.message = message
        self.details = details
    }

    public var description: String { "\(code) \(message)" }
}

extension APIDefinitions {
    /// `params` (an object, or null for none) checked against the API `name` and made into the
    /// request to send.
    public func prepare(_ name: String, params: JSONValue) throws(CallError) -> PreparedRequest {
        guard let api = apis[name], let service = services[api.service] else {
            let hint = Suggestion.hint(for: name, in: apis.keys.sorted())
            throw CallError(code: "E_NO_SERVICE", message: "api.call: no API named \(DiagnosticText.quoted(name))\(hint)")
        }
        let given: JSONObject
        switch params {
        case .null: given = JSONObject()
        case .object(let object): given = object
        default: throw CallError(code: "E_BAD_PARAMS", message: "\(name): params must be an object, got \(ParamRule.describe(params))")
        }
        var values: [String: JSONValue] = [:]
        for member in given {
            guard let rule = api.params[member.key] else {
                let known = api.params.keys.sorted()
                let listed = known.isEmpty ? "it takes none" : "its params are " + known.joined(separator: ", ")
                throw CallError(code: "E_BAD_PARAMS",
                                message: "\(name): no param named \(DiagnosticText.quoted(member.key)) (\(listed))\(Suggestion.hint(for: member.key, in: known))")
            }
            if member.value == .null, !rule.required { continue }
            if let problem = rule.problem(with: member.value) {
                throw CallError(code: "E_BAD_PARAMS", message: "\(name): param \(DiagnosticText.quoted(member.key)): \(problem)")
            }
            values[member.key] = member.value
        }
        for (param, rule) in api.params.sorted(by: { $0.key < $1.key }) where values[param] == nil {
            if let value = rule.defaultValue {
                values[param] = value
            } else if rule.required {
                throw CallError(code: "E_BAD_PARAMS", message: "\(name): missing the required param \(DiagnosticText.quoted(param))")
            }
        }
        let canonical = Self.canonical(.object(JSONObject(values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })))
        // `{name}` takes its param; what is left goes into the query or the body.
        var rest = values
        var path = ""
        var remainder = Substring(api.path)
        while let open = remainder.firstIndex(of: "{"), let close = remainder[open...].firstIndex(of: "}") {
            path += remainder[..<open]
            let param = String(remainder[remainder.index(after: open)..<close])
            guard let value = rest.removeValue(forKey: param) else {
                throw CallError(code: "E_BAD_PARAMS", message: "\(name): the path needs the param \(DiagnosticText.quoted(param))")
            }
            path += PreparedRequest.percentEncoded(Self.text(of: value))
            remainder = remainder[remainder.index(after: close)...]
        }
        path += remainder
        var query: [(name: String, value: String)] = []
        var body: [UInt8]?
        if ["GET", "HEAD", "DELETE"].contains(api.method) {
            for (param, value) in rest {
                if case .array(let items) = value {
                    query += items.map { (param, Self.text(of: $0)) }
                } else {
                    query.append((param, Self.text(of: value)))
                }
            }
            query.sort { ($0.name, $0.value) < ($1.name, $1.value) }
        } else {
            body = Array(Self.canonical(.object(JSONObject(rest.map { ($0.key, $0.value) }))).jsonText.utf8)
        }
        return PreparedRequest(api: name, method: api.method, baseURL: service.baseURL, path: path, query: query, body: body,
                               params: canonical, cacheKey: name + "\u{0}" + canonical.jsonText)
    }

    /// `value` with every object's members sorted by name, all the way down.
    static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.map { ($0.key, canonical($0.value)) }.sorted { $0.0 < $1.0 }))
        case .array(let items):
            return .array(items.map(canonical))
        default:
            return value
        }
    }

    /// How a param's value reads in a path or a query: strings as they are, the rest as JSON.
    static func text(of value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return canonical(value).jsonText
    }
}
