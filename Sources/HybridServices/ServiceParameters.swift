import HybridJSON

/// The parameters of one call, in whatever form the caller holds them: a `JSONValue` from a
/// screen action or a test, or a JavaScript object read in place by the bridge (no copy).
public protocol ServiceParameters {
    /// The field names present, to reject unknown ones; `nil` when the parameters are not an
    /// object (or absent, which counts as `{}` and should return `[]`).
    var fieldNames: [String]? { get }
    /// A description of the value for error messages, such as `an array` or `"x"`.
    var kindDescription: String { get }
    /// Decodes the parameters into the service's Swift type.
    func decode<T: Decodable>(_ type: T.Type) throws -> T
}

extension JSONValue: ServiceParameters {
    public var fieldNames: [String]? {
        switch self {
        case .object(let object): return object.keys
        case .null: return []
        default: return nil
        }
    }

    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoder().decode(type, from: self == .null ? .object(JSONObject()) : self)
    }
}
