import HybridJSON

/// The parameters of one call, in whatever form the caller holds them: a `JSONValue` from a
/// screen action or a test, or a JavaScript object read in place by the bridge (no copy).
public protocol ServiceParameters {
    /// Whether the parameters are an object (absent parameters count as `{}`).
    var isObject: Bool { get }
    /// The first field that is not one of `known`, to reject misspelt fields.
    func unknownField(among known: [String]) -> String?
    /// A description of the value for error messages, such as `an array` or `"x"`.
    var kindDescription: String { get }
    /// Decodes the parameters into the service's Swift type.
    ///
    /// - Parameters:
    ///   - type: The service's parameter type.
    ///   - fields: The field names `type` reads, in the order `ServiceRegistry.fieldNames(of:)`
    ///     lists them: parameters that arrive as values in that order (the bridge's) pair
    ///     them up by it.
    func decode<T: Decodable>(_ type: T.Type, fields: [String]) throws -> T
}

extension JSONValue: ServiceParameters {
    public var isObject: Bool {
        switch self {
        case .object, .null: return true
        default: return false
        }
    }

    public func unknownField(among known: [String]) -> String? {
        objectValue?.keys.first { !known.contains($0) }
    }

    public func decode<T: Decodable>(_ type: T.Type, fields: [String]) throws -> T {
        try JSONValueDecoder().decode(type, from: self == .null ? .object(JSONObject()) : self)
    }
}
