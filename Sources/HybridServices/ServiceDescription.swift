import HybridJSON

/// What a registered service is: its name, whether it answers synchronously, the permission it
/// needs, and its parameters (shown to scripts by `hybrid.services()`).
public struct ServiceDescription: Sendable, Equatable {
    /// `domain.verb`.
    public var name: String
    /// Whether `hybrid.callSync` may call it.
    public var isSync: Bool
    /// The permission a caller needs, if any.
    public var permission: String?
    /// The fields of the parameter object, in declaration order.
    public var parameters: [ParameterDescription]
    /// A sentence for humans, if the host gave one.
    public var summary: String?

    /// The description as scripts see it.
    public var json: JSONValue {
        var object = JSONObject([
            ("name", .string(name)),
            ("sync", .bool(isSync)),
            ("params", .array(parameters.map(\.json))),
        ])
        if let permission { object["permission"] = .string(permission) }
        if let summary { object["summary"] = .string(summary) }
        return .object(object)
    }
}

/// One field of a service's parameter object.
public struct ParameterDescription: Sendable, Equatable {
    /// The field name.
    public var name: String
    /// `string`, `integer`, `number`, `boolean`, `object`, `array` or `any`.
    public var type: String
    /// Whether the call fails without it.
    public var isRequired: Bool

    /// A field description.
    public init(name: String, type: String, isRequired: Bool) {
        self.name = name
        self.type = type
        self.isRequired = isRequired
    }

    var json: JSONValue {
        .object(JSONObject([("name", .string(name)), ("type", .string(type)), ("required", .bool(isRequired))]))
    }
}

/// The parameters of a service that takes none: `{}` (SPEC §4's `Empty`).
public struct Empty: Codable, Sendable, Equatable {
    /// No fields.
    public init() {}
}
