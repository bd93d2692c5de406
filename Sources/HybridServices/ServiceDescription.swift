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
    /// How many seconds a caller should wait for an answer when the script gives no `timeout`
    /// of its own, before failing the call with `E_TIMEOUT`. `nil` when the service bounds its
    /// own time (`net.request` stops at its `timeout` parameter) or cannot be cut off (sync
    /// services, which run to the end on the caller's thread); a caller then waits for the answer.
    public var timeout: Double?

    /// The description as scripts see it.
    public var json: JSONValue {
        var object = JSONObject([
            ("name", .string(name)),
            ("sync", .bool(isSync)),
            ("params", .array(parameters.map(\.json))),
        ])
        if let permission { object["permission"] = .string(permission) }
        if let summary { object["summary"] = .string(summary) }
        if let timeout {
            // Whole seconds read as integers (`30`, not `30.0`) in `hybrid.services()`.
            let whole = timeout.rounded() == timeout && abs(timeout) < 1e15
            object["timeout"] = whole ? .integer(Int(timeout)) : .number(timeout)
        }
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
