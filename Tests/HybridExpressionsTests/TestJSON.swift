/// A minimal JSON reader for the conformance data. It keeps integers and fractional numbers
/// apart (`7` vs `7.0`), which the typed expression values depend on and which
/// `JSONSerialization` does not report reliably across platforms.
enum TestJSON: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([TestJSON])
    case object([(String, TestJSON)])

    static func == (a: TestJSON, b: TestJSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.double(x), .double(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    subscript(key: String) -> TestJSON? {
        if case .object(let entries) = self { return entries.first { $0.0 == key }?.1 }
        return nil
    }

    /// The value as compact text (for matching skip entries).
    static func render(_ value: TestJSON) -> String {
        switch value {
        case .null: return "null"
        case .bool(let v): return v ? "true" : "false"
        case .int(let v): return String(v)
        case .double(let v): return String(v)
        case .string(let v): return v
        case .array(let items): return "[" + items.map(render).joined(separator: ",") + "]"
        case .object(let entries): return "{" + entries.map { "\($0.0):\(render($0.1))" }.joined(separator: ",") + "}"
        }
    }

    var string: String? { if case .string(let s) = self { return s }; return nil }
    var array: [TestJSON]? { if case .array(let a) = self { return a }; return nil }

    struct ParseError: Error { let offset: Int }

    static func parse(_ text: String) throws -> TestJSON {
        var reader = Reader(bytes: Array(text.utf8))
        let value = try reader.value()
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw ParseError(offset: reader.index) }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func value() throws -> TestJSON {
            skipWhitespace()
            guard index < bytes.count else { throw ParseError(offset: index) }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var entries: [(String, TestJSON)] = []
                skipWhitespace()
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(entries) }
                while true {
                    skipWhitespace()
                    guard case .string(let key) = try value() else { throw ParseError(offset: index) }
                    skipWhitespace()
                    guard bytes[index] == UInt8(ascii: ":") else { throw ParseError(offset: index) }
                    index += 1
                    entries.append((key, try value()))
                    skipWhitespace()
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "}") else { throw ParseError(offset: index) }
                    index += 1
                    return .object(entries)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [TestJSON] = []
                skipWhitespace()
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    items.append(try value())
                    skipWhitespace()
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "]") else { throw ParseError(offset: index) }
                    index += 1
                    return .array(items)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): index += 4; return .bool(true)
            case UInt8(ascii: "f"): index += 5; return .bool(false)
            case UInt8(ascii: "n"): index += 4; return .null
            default:
                let start = index
                while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                if !text.contains(where: { ".eE".contains($0) }), let int = Int(text) { return .int(int) }
                guard let double = Double(text) else { throw ParseError(offset: start) }
                return .double(double)
            }
        }

        mutating func string() throws -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var pendingHigh: UInt32?
            var utf8: [UInt8] = []
            func flush() {
                if !utf8.isEmpty { scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars); utf8 = [] }
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { index += 1; flush(); return String(scalars) }
                if byte != UInt8(ascii: "\\") { utf8.append(byte); index += 1; continue }
                flush()
                let escape = bytes[index + 1]
                index += 2
                switch escape {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "u"):
                    let hex = String(decoding: bytes[index..<index + 4], as: UTF8.self)
                    index += 4
                    let code = UInt32(hex, radix: 16) ?? 0xFFFD
                    if (0xD800..<0xDC00).contains(code) {
                        pendingHigh = code
                    } else if (0xDC00..<0xE000).contains(code), let high = pendingHigh {
                        scalars.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00))!)
                        pendingHigh = nil
                    } else {
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    }
                default: scalars.append(Unicode.Scalar(escape))
                }
            }
            throw ParseError(offset: index)
        }
    }
}
