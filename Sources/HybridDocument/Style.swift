import HybridJSON
import HybridLayout

/// Border line kinds.
public enum BorderKind: String, Sendable, CaseIterable {
    case none, single, rounded, double, heavy
}

/// How text breaks into lines.
public enum WrapMode: String, Sendable, CaseIterable {
    case word, char, none
}

/// Horizontal alignment of text lines.
public enum TextAlignment: String, Sendable, CaseIterable {
    case left, center, right
}

/// A colour as a document names it; the renderer degrades it to what the terminal shows.
public enum ColorValue: Sendable, Equatable {
    /// One of the 16 ANSI colours, 0…15.
    case ansi(Int)
    /// An entry of the 256-colour palette.
    case indexed(Int)
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)

    /// The 16 ANSI names, by palette index; aliases follow.
    public static let names: [String: Int] = [
        "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7,
        "gray": 8, "brightRed": 9, "brightGreen": 10, "brightYellow": 11, "brightBlue": 12,
        "brightMagenta": 13, "brightCyan": 14, "brightWhite": 15,
        "grey": 8, "brightBlack": 8,
    ]
}

/// The `style` of a node, decoded and typed. Fields left out are `nil` (inherit or default).
public struct NodeStyle: Sendable, Equatable {
    public var width: Dimension?
    public var height: Dimension?
    public var minWidth: Dimension?
    public var maxWidth: Dimension?
    public var minHeight: Dimension?
    public var maxHeight: Dimension?
    public var flex: Double?
    public var padding: Edges?
    public var margin: Edges?
    public var gap: Int?
    public var align: Alignment?
    public var justify: Justification?
    public var border: BorderKind?
    public var borderColor: ColorValue?
    public var color: ColorValue?
    public var background: ColorValue?
    public var bold: Bool?
    public var italic: Bool?
    public var underline: Bool?
    public var dim: Bool?
    public var reverse: Bool?
    public var wrap: WrapMode?
    public var textAlign: TextAlignment?

    /// A style with every field unset.
    public init() {}

    /// A style field a document may use.
    public enum Field: String, CaseIterable, Sendable {
        case width, height, minWidth, maxWidth, minHeight, maxHeight, flex, padding, margin, gap
        case align, justify, border, borderColor, color, background
        case bold, italic, underline, dim, reverse, wrap, textAlign

        /// Looked up once per style member while decoding, so by hash rather than by a chain
        /// of string comparisons.
        static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

        /// The field called `name`, if any.
        public init?(name: String) {
            guard let field = Self.byName[name] else { return nil }
            self = field
        }
    }

    /// This style with every field `other` sets taken from `other` (a node's classes, in
    /// order, then its own style).
    public mutating func apply(_ other: NodeStyle) {
        width = other.width ?? width
        height = other.height ?? height
        minWidth = other.minWidth ?? minWidth
        maxWidth = other.maxWidth ?? maxWidth
        minHeight = other.minHeight ?? minHeight
        maxHeight = other.maxHeight ?? maxHeight
        flex = other.flex ?? flex
        padding = other.padding ?? padding
        margin = other.margin ?? margin
        gap = other.gap ?? gap
        align = other.align ?? align
        justify = other.justify ?? justify
        border = other.border ?? border
        borderColor = other.borderColor ?? borderColor
        color = other.color ?? color
        background = other.background ?? background
        bold = other.bold ?? bold
        italic = other.italic ?? italic
        underline = other.underline ?? underline
        dim = other.dim ?? dim
        reverse = other.reverse ?? reverse
        wrap = other.wrap ?? wrap
        textAlign = other.textAlign ?? textAlign
    }

    /// The field names a document may use, in documentation order.
    public static let fieldNames = Field.allCases.map(\.rawValue)

    /// Sets one field from a JSON value; returns the error message when the value does not fit.
    public mutating func set(_ name: String, to value: JSONValue) -> String? {
        guard let field = Field(name: name) else {
            return "unknown field \(DiagnosticText.quoted(name))" + Suggestion.hint(for: name, in: Self.fieldNames)
        }
        return set(field, to: value)
    }

    /// Sets one field from a JSON value; returns the error message when the value does not fit.
    public mutating func set(_ field: Field, to value: JSONValue) -> String? {
        do {
            switch field {
            case .width: width = try Self.dimension(value)
            case .height: height = try Self.dimension(value)
            case .minWidth: minWidth = try Self.limit(value)
            case .maxWidth: maxWidth = try Self.limit(value)
            case .minHeight: minHeight = try Self.limit(value)
            case .maxHeight: maxHeight = try Self.limit(value)
            case .flex: flex = try Self.flex(value)
            case .padding: padding = try Self.edges(value)
            case .margin: margin = try Self.edges(value)
            case .gap: gap = try Self.count(value)
            case .align: align = try Self.keyword(value)
            case .justify: justify = try Self.keyword(value)
            case .border: border = try Self.keyword(value)
            case .borderColor: borderColor = try Self.color(value)
            case .color: color = try Self.color(value)
            case .background: background = try Self.color(value)
            case .bold: bold = try Self.flag(value)
            case .italic: italic = try Self.flag(value)
            case .underline: underline = try Self.flag(value)
            case .dim: dim = try Self.flag(value)
            case .reverse: reverse = try Self.flag(value)
            case .wrap: wrap = try Self.keyword(value)
            case .textAlign: textAlign = try Self.keyword(value)
            }
            return nil
        } catch {
            return error.message
        }
    }

    /// A value that does not fit a style field, with the message saying what would.
    public struct Mismatch: Error {
        public var message: String
    }

    /// A size: cells, `"50%"`, `"auto"` or `"fill"`.
    public static func dimension(_ value: JSONValue) throws(Mismatch) -> Dimension {
        let expected = "expected a number, \"50%\", \"auto\" or \"fill\""
        switch value {
        case .integer(let cells) where cells >= 0: return .cells(saturated(cells))
        case .number(let cells) where cells >= 0 && cells == cells.rounded(): return .cells(saturated(cells))
        case .string("auto"): return .auto
        case .string("fill"): return .fill
        case .string(let text):
            if let percent = percent(text) { return .percent(percent) }
            throw Mismatch(message: expected + ", got \(DiagnosticText.quoted(text))")
        case .integer, .number: throw Mismatch(message: expected + " (cells are whole and not negative)")
        default: throw Mismatch(message: expected)
        }
    }

    static func limit(_ value: JSONValue) throws(Mismatch) -> Dimension {
        let expected = "expected a number or a percentage like \"50%\""
        switch value {
        case .integer(let cells) where cells >= 0: return .cells(saturated(cells))
        case .string(let text):
            if let percent = percent(text) { return .percent(percent) }
            throw Mismatch(message: expected + ", got \(DiagnosticText.quoted(text))")
        default: throw Mismatch(message: expected + " (cells are whole and not negative)")
        }
    }

    /// A count of cells, no more than `Dimension.maximumCells`: larger sizes show nothing
    /// more, and would overflow the sums layout makes.
    static func saturated(_ cells: Int) -> Int {
        min(cells, Dimension.maximumCells)
    }

    /// A whole, non-negative number of cells given as a double (`1e19`), saturated.
    static func saturated(_ cells: Double) -> Int {
        cells < Double(Dimension.maximumCells) ? Int(cells) : Dimension.maximumCells
    }

    private static func percent(_ text: String) -> Double? {
        guard text.hasSuffix("%"), let number = Double(text.dropLast()), number >= 0, number <= 100,
              text.dropLast().allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        return number
    }

    static func flex(_ value: JSONValue) throws(Mismatch) -> Double {
        switch value {
        // Weights are shares of what is left; capped like sizes so their sum stays finite.
        case .integer(let weight) where weight >= 0: return Double(saturated(weight))
        case .number(let weight) where weight >= 0: return min(weight, Double(Dimension.maximumCells))
        default: throw Mismatch(message: "expected a number not below 0")
        }
    }

    static func count(_ value: JSONValue) throws(Mismatch) -> Int {
        if case .integer(let count) = value, count >= 0 { return saturated(count) }
        throw Mismatch(message: "expected a whole number not below 0")
    }

    static func edges(_ value: JSONValue) throws(Mismatch) -> Edges {
        let expected = "expected a whole number, [vertical, horizontal] or [top, right, bottom, left]"
        switch value {
        case .integer(let all) where all >= 0:
            let all = saturated(all)
            return Edges(top: all, right: all, bottom: all, left: all)
        case .array(let items):
            var sides: [Int] = []
            for item in items {
                guard case .integer(let side) = item, side >= 0 else { throw Mismatch(message: expected) }
                sides.append(saturated(side))
            }
            switch sides.count {
            case 2: return Edges(top: sides[0], right: sides[1], bottom: sides[0], left: sides[1])
            case 4: return Edges(top: sides[0], right: sides[1], bottom: sides[2], left: sides[3])
            default: throw Mismatch(message: expected + ", got \(sides.count) items")
            }
        default:
            throw Mismatch(message: expected)
        }
    }

    static func flag(_ value: JSONValue) throws(Mismatch) -> Bool {
        if case .bool(let flag) = value { return flag }
        throw Mismatch(message: "expected true or false")
    }

    /// One of a keyword enum's names, with a did-you-mean when it is not.
    public static func keyword<Keyword: RawRepresentable & CaseIterable>(_ value: JSONValue) throws(Mismatch) -> Keyword
    where Keyword.RawValue == String {
        if case .string(let text) = value, let keyword = Keyword(rawValue: text) { return keyword }
        // The message lists every keyword, so it is built only when the value does not fit.
        let names = Keyword.allCases.map(\.rawValue)
        let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
        guard case .string(let text) = value else { throw Mismatch(message: "expected one of \(list)") }
        throw Mismatch(message: "expected one of \(list), got \(DiagnosticText.quoted(text))" + Suggestion.hint(for: text, in: names))
    }

    static func color(_ value: JSONValue) throws(Mismatch) -> ColorValue {
        let expected = "expected a colour: one of the 16 ANSI names, \"#rrggbb\" or a number 0-255"
        switch value {
        case .integer(let index) where (0...255).contains(index):
            return index < 16 ? .ansi(index) : .indexed(index)
        case .string(let text) where text.hasPrefix("#"):
            let hex = text.dropFirst()
            guard hex.count == 6, let rgb = UInt32(hex, radix: 16) else {
                throw Mismatch(message: expected + ", got \(DiagnosticText.quoted(text))")
            }
            return .rgb(UInt8(rgb >> 16), UInt8(rgb >> 8 & 0xFF), UInt8(rgb & 0xFF))
        case .string(let text):
            if let index = ColorValue.names[text] { return .ansi(index) }
            throw Mismatch(message: "unknown colour \(DiagnosticText.quoted(text)); " + expected
                + Suggestion.hint(for: text, in: ColorValue.names.keys.sorted()))
        default:
            throw Mismatch(message: expected)
        }
    }
}

extension LocatingDecoder {
    /// Decodes a `style` object: literal fields into `style`, fields bound to an expression
    /// into `bound` (evaluated at render time).
    public mutating func style(_ json: SourceJSON, into style: inout NodeStyle, bound: inout [(field: String, value: PropertyValue)]) {
        guard let members = json.members else {
            report("expected a style object, got \(json.kindDescription)", at: json.offset)
            return
        }
        let repeated = members.repeatedKeys()
        for index in members.indices {
            // The path is extended only to report or parse: most members need neither.
            let member = members[index]
            let key = member.key
            if repeated.contains(index) {
                inKey(key) { $0.report("duplicate field \(DiagnosticText.quoted(key))", at: member.keyOffset) }
                continue
            }
            guard let field = NodeStyle.Field(name: key) else {
                inKey(key) { $0.report("unknown field \(DiagnosticText.quoted(key))" + Suggestion.hint(for: key, in: NodeStyle.fieldNames), at: member.keyOffset) }
                continue
            }
            let value = member.value
            if Self.isSingleExpression(value) {
                bound.append((key, inKey(key) { $0.bindable(value) }))
            } else if let message = style.set(field, to: value.plain) {
                inKey(key) { $0.report(message, at: value.offset) }
            }
        }
    }
}
