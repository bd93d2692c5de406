/// A malformed JSON text: what was wrong and the byte offset where it was found.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    /// Byte offset of the offending character (or the end of input).
    public var offset: Int
    /// What was expected or found, e.g. `expected ',' or '}' after an object member`.
    public var message: String

    /// An error found at `offset`.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}

/// A strict RFC 8259 parser over UTF-8 bytes that records where every value starts.
///
/// Written by hand because screens are parsed on the first-frame path (the benchmark scene is
/// 230 KB) and Foundation's parser neither keeps positions nor tells integers from numbers.
public enum JSONParser {
    /// The maximum nesting of arrays and objects; deeper input is rejected rather than
    /// overflowing the stack.
    public static let maximumDepth = 512

    /// Parses one JSON value (surrounded by optional whitespace) from `bytes`.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> SourceJSON {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> SourceJSON in
            var reader = Reader(bytes: buffer)
            reader.skipWhitespace()
            let value = try reader.parseValue(depth: 0)
            reader.skipWhitespace()
            if reader.index < buffer.count {
                throw reader.error("unexpected \(reader.describeCurrent()) after the end of the document")
            }
            return value
        }
    }

    /// Parses one JSON value from text.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> SourceJSON {
        try parse(Array(text.utf8))
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? index, message: message)
    }

    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> SourceJSON {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return SourceJSON(kind: .object(try parseObject(depth: depth + 1)), offset: start)
        case UInt8(ascii: "["): return SourceJSON(kind: .array(try parseArray(depth: depth + 1)), offset: start)
        case UInt8(ascii: "\""): return SourceJSON(kind: .string(try parseString()), offset: start)
        case UInt8(ascii: "t"): try expectWord("true"); return SourceJSON(kind: .bool(true), offset: start)
        case UInt8(ascii: "f"): try expectWord("false"); return SourceJSON(kind: .bool(false), offset: start)
        case UInt8(ascii: "n"): try expectWord("null"); return SourceJSON(kind: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return SourceJSON(kind: try parseNumber(), offset: start)
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let start = index
        let count = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        guard index + count <= bytes.count,
              expected.indices.allSatisfy({ bytes[start + $0] == expected[$0] }) else {
            throw error("unexpected \(describeCurrent()), expected a value", at: start)
        }
        index += count
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> [SourceJSON.Member] {
        guard depth <= JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        index += 1
        var members: [SourceJSON.Member] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return members
        }
        // Objects in screens are small; one allocation fits most of them, where growing from
        // empty would allocate and copy up to three times.
        members.reserveCapacity(4)
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
                throw error("unexpected \(describeCurrent()), expected a member name in double quotes")
            }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after member name \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(SourceJSON.Member(key: key, keyOffset: keyOffset, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return members
            default: throw error("unexpected \(describeCurrent()), expected ',' or '}' after an object member")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> [SourceJSON] {
        guard depth <= JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        index += 1
        var items: [SourceJSON] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return items
        }
        // Most arrays in screens (spans, children) hold several items; start with room for a
        // few rather than growing one at a time.
        items.reserveCapacity(8)
        while true {
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return items
            default: throw error("unexpected \(describeCurrent()), expected ',' or ']' after an array item")
            }
        }
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        let contentStart = index
        // Fast path: no escapes, so the bytes are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error(byte == 0x0A ? "unterminated string" : "control character in a string; escape it") }
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string", at: start) }
        var scalars = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string", at: start) }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"): scalars.append(contentsOf: try parseUnicodeEscape())
                default:
                    index -= 1
                    throw error("invalid escape '\\\(describeCurrent().trimmingQuotes)' in a string")
                }
            default:
                if byte < 0x20 { throw error(byte == 0x0A ? "unterminated string" : "control character in a string; escape it") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unterminated string", at: start)
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape: expected four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> [UInt8] {
        var code = try parseHex4()
        if (0xD800...0xDBFF).contains(code) {
            // A high surrogate must be followed by an escaped low surrogate.
            if index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair in \\u escape") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else {
                throw error("lone surrogate in \\u escape")
            }
        } else if (0xDC00...0xDFFF).contains(code) {
            throw error("lone surrogate in \\u escape")
        }
        return Array(String(Character(Unicode.Scalar(code)!)).utf8)
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> SourceJSON.Kind {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("invalid number: leading zero") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int(text) { return .integer(value) }
        guard let value = Double(text) else { throw error("invalid number", at: start) }
        return .number(value)
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

private extension String {
    var trimmingQuotes: Substring {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? dropFirst().dropLast() : Substring(self)
    }
}
