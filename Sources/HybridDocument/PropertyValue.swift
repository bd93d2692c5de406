import Foundation
import HybridExpressions
import HybridJSON

/// Where an expression is written, to locate errors found when it is evaluated.
public struct ExpressionLocation: Sendable, Hashable {
    /// Byte offset of the string holding the expression.
    public var offset: Int
    /// JSON path of that string.
    public var path: String

    /// The place at `offset`, JSON path `path`.
    public init(offset: Int, path: String) {
        self.offset = offset
        self.path = path
    }
}

/// A prop's value as written in the document: literal JSON, possibly with `@{…}` bindings
/// anywhere inside strings, parsed once when the document loads.
///
/// Only the large expression case is boxed: literals, by far the most common (every span of a
/// long text), are stored inline rather than allocated one by one.
public enum PropertyValue: Sendable {
    /// A value with no binding anywhere in it.
    case constant(JSONValue)
    /// A string holding `@{…}`; a string that is exactly one `@{…}` keeps the result's type.
    indirect case expression(ExpressionTemplate, source: String, location: ExpressionLocation)
    /// An array some of whose items hold bindings.
    case array([PropertyValue])
    /// An object some of whose members hold bindings.
    case object([(key: String, value: PropertyValue)])

    /// Whether evaluating can give different results for different state.
    public var isConstant: Bool {
        if case .constant = self { return true }
        return false
    }

    /// The text when this is a literal string, as most texts and spans are.
    @inlinable
    public var literalString: String? {
        if case .constant(.string(let text)) = self { return text }
        return nil
    }

    /// The literal value when there is no binding.
    public var constantValue: JSONValue? {
        if case .constant(let value) = self { return value }
        return nil
    }

    /// For a two-way binding such as `"@{form.email}"`: the dotted name it reads, which an
    /// input writes back to. Nil for anything that is not exactly one plain name.
    public var bindingName: String? {
        guard case .expression(_, let source, _) = self, source.hasPrefix("@{"), source.hasSuffix("}") else { return nil }
        let name = source.dropFirst(2).dropLast().trimmingCharacters(in: .whitespaces)
        guard let first = name.first, first.isLetter || first == "_",
              name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }),
              !name.hasSuffix("."), !name.contains("..") else { return nil }
        return name
    }
}

extension LocatingDecoder {
    /// A prop written as a literal or with bindings anywhere inside its strings, parsed once;
    /// expression syntax errors are reported and the string reads as empty.
    public mutating func bindable(_ json: SourceJSON) -> PropertyValue {
        switch json.kind {
        case .string:
            let text = json.stringValue!
            // Looked for in the bytes: `String.contains` goes through Foundation's search.
            let binds = json.withStringUTF8 { bytes in
                bytes.indices.dropLast().contains { bytes[$0] == UInt8(ascii: "@") && bytes[$0 + 1] == UInt8(ascii: "{") }
            } ?? false
            guard binds else { return .constant(.string(text)) }
            do {
                let template = try ExpressionTemplate(parsing: text)
                return .expression(template, source: text, location: ExpressionLocation(offset: json.offset, path: path.description))
            } catch {
                report("invalid expression: " + error.message, at: json.offset)
                return .constant(.string(""))
            }
        case .array:
            let items = json.items!
            var parsed: [PropertyValue] = []
            parsed.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                parsed.append(atIndex(index) { $0.bindable(item) })
            }
            if parsed.allSatisfy(\.isConstant) { return .constant(json.plain) }
            return .array(parsed)
        case .object:
            var parsed: [(key: String, value: PropertyValue)] = []
            for member in json.members! {
                parsed.append((member.key, inKey(member.key) { $0.bindable(member.value) }))
            }
            if parsed.allSatisfy(\.value.isConstant) { return .constant(json.plain) }
            return .object(parsed)
        default:
            return .constant(json.plain)
        }
    }
}
