/// A JSON value as the runtime passes it around: screen state, action parameters, service
/// payloads. Integers are kept apart from other numbers because the expression language types
/// them differently (`1` is an integer, `1.0` a number).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The member named `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// A short name of the kind, for messages ("a string", "an object").
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

    /// The string payload, or `nil` for other kinds.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number an integer or a number holds, or `nil` for other kinds.
    public var numericValue: Double? {
        switch self {
        case .integer(let integer): return Double(integer)
        case .number(let number): return number
        default: return nil
        }
    }

    /// The array payload, or `nil` for other kinds.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object payload, or `nil` for other kinds.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether a change at one dotted path touches what is at the other: the same path, one
    /// inside it, or one around it; `""` (the whole tree) touches every path.
    public static func pathsOverlap(_ first: String, _ second: String) -> Bool {
        first.isEmpty || second.isEmpty || first == second || second.hasPrefix(first + ".") || first.hasPrefix(second + ".")
    }

    /// The value at a dotted path (`user.name`, `items.0.title`); numeric segments index arrays.
    public func value(atPath path: String) -> JSONValue? {
        var current = self
        for segment in path.split(separator: Character("."), omittingEmptySubsequences: false) {
            switch current {
            case .object(let object):
                guard let next = object[String(segment)] else { return nil }
                current = next
            case .array(let items):
                guard let index = Int(segment), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Sets the value at a dotted path, creating intermediate objects as needed.
    /// Returns `false` when the path crosses a value that is neither an object nor an array,
    /// or has more segments than `JSONParser.maximumDepth` (a document's `set` action could
    /// otherwise build state nested too deep for anything recursive to walk).
    @discardableResult
    public mutating func setValue(_ newValue: JSONValue, atPath path: String) -> Bool {
        let segments = path.split(separator: Character("."), omittingEmptySubsequences: false).map(String.init)
        guard segments.count <= JSONParser.maximumDepth else { return false }
        return Self.set(newValue, in: &self, segments: segments[...])
    }

    private static func set(_ newValue: JSONValue, in target: inout JSONValue, segments: ArraySlice<String>) -> Bool {
        guard let head = segments.first else {
            target = newValue
            return true
        }
        switch target {
        case .object(var object):
            var child = object[head] ?? .null
            guard set(newValue, in: &child, segments: segments.dropFirst()) else { return false }
            object[head] = child
            target = .object(object)
            return true
        case .array(var items):
            guard let index = Int(head), items.indices.contains(index) else { return false }
            guard set(newValue, in: &items[index], segments: segments.dropFirst()) else { return false }
            target = .array(items)
            return true
        case .null:
            var child = JSONValue.null
            guard set(newValue, in: &child, segments: segments.dropFirst()) else { return false }
            target = .object(JSONObject([(head, child)]))
            return true
        default:
            return false
        }
    }
}

/// A JSON object that keeps its members in source order, so output and error reports follow the
/// author's order. Objects in screens are small; lookups scan.
public struct JSONObject: Hashable, Sendable, Sequence {
    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// An object with these members, in this order.
    public init(_ members: [(String, JSONValue)] = []) {
        self.members = members.map { (key: $0.0, value: $0.1) }
    }

    /// The member named `key`; setting `nil` removes it, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            let index = members.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let i?, let value?): members[i].value = value
            case (let i?, nil): members.remove(at: i)
            case (nil, let value?): members.append((key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// Iterates the members in order.
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        members.makeIterator()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members.sorted(by: { $0.key < $1.key }) {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}
