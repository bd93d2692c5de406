import HybridJSON

/// A coding key for places the Swift type names none of its own: array positions, `JSONValue`
/// members and `super`.
struct JSONCodingKey: CodingKey, Hashable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    /// An array position. The string form follows Foundation's `Index N`, which is how
    /// `describeCodingPath` tells a position from an object member whose key happens to be an `Int`.
    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    /// The key `superDecoder()` and `superEncoder()` use, as Foundation's JSON coders do.
    static let superKey = JSONCodingKey(stringValue: "super")
}

/// A coding path as a script author would write it: `items[2].qty`; members whose names are not
/// identifiers are bracketed and quoted (`headers["content-type"]`). The root is `""`.
public func describeCodingPath(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
        if let index = key.intValue, key.stringValue == "Index \(index)" {
            text += "[\(index)]"
        } else if isIdentifier(key.stringValue) {
            if !text.isEmpty { text += "." }
            text += key.stringValue
        } else {
            text += "["
            JSONText.appendQuoted(key.stringValue, to: &text)
            text += "]"
        }
    }
    return text
}

/// Splits a decoding error into the field it concerns and a message for users, so the registry
/// can say `cart.add: field "items[2].qty": expected an integer, got "two"`.
///
/// - `field` is the path of the offending value (`items[2].qty`), or `nil` when the problem is
///   the parameter object itself. For a missing field it is the path of the object that lacks it.
/// - `message` is `missing field "sku"` for a missing field, else the error's debug description
///   (which `JSONValueDecoder` phrases for users).
public func describeDecodingError(_ error: DecodingError) -> (field: String?, message: String) {
    switch error {
    case .keyNotFound(let key, let context):
        return (fieldName(context.codingPath), "missing field \(quoted(key.stringValue))")
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
        return (fieldName(context.codingPath), context.debugDescription)
    @unknown default:
        return (nil, String(describing: error))
    }
}

private func fieldName(_ path: [any CodingKey]) -> String? {
    path.isEmpty ? nil : describeCodingPath(path)
}

private func isIdentifier(_ name: String) -> Bool {
    guard let first = name.first, first.isLetter || first == "_" || first == "$" else { return false }
    return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
}

/// `text` as a JSON string literal.
func quoted(_ text: String) -> String {
    var output = ""
    JSONText.appendQuoted(text, to: &output)
    return output
}

/// A number as JavaScript would print it when it is whole (`3`, not `3.0`), since scripts are
/// where the values come from.
func numberText(_ number: Double) -> String {
    if number.isFinite, number == number.rounded(), abs(number) < 1e15 {
        return String(Int64(number))
    }
    return String(number)
}

/// What a message says was found: scalars by their value (long strings cut), containers by kind.
func describeFound(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .integer(let number): return String(number)
    case .number(let number): return numberText(number)
    case .string(let text):
        // A whole pasted document in an error message helps nobody.
        return text.count > 40 ? quoted(String(text.prefix(37))) + "…" : quoted(text)
    case .array: return "an array"
    case .object: return "an object"
    }
}
