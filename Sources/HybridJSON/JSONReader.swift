import CJSONScan
#if canImport(Glibc)
import Glibc
#endif

/// Reads JSON text into tape entries; also decodes escaped strings when they are read.
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var entries: [JSONTape.Entry] = []
    /// Whether large node lists are skimmed past (see `JSONParser.parse(_:deferringNodeLists:)`).
    var defersNodeLists = false
    /// Where node lists end, by where they start, as skims found them (`JSONSkim`).
    var nodeListEnds: [Int: Int] = [:]

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

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "t"): try expectWord("true"); entries.append(JSONTape.Entry(tag: .true, offset: start))
        case UInt8(ascii: "f"): try expectWord("false"); entries.append(JSONTape.Entry(tag: .false, offset: start))
        case UInt8(ascii: "n"): try expectWord("null"); entries.append(JSONTape.Entry(tag: .null, offset: start))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
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

    /// Appends a container's entry, to be completed by `close(_:count:)`.
    mutating func open(_ tag: JSONTape.Tag) -> Int {
        entries.append(JSONTape.Entry(tag: tag, offset: index))
        return entries.count - 1
    }

    /// Records how many items or members the container at `entry` has and where it ends.
    mutating func close(_ entry: Int, count: Int) {
        entries[entry].count = UInt32(count)
        entries[entry].payload = entries.count
    }

    /// Opens the container whose bracket is at `index`, at `depth`: its entry, or nil when it
    /// is empty (then closed already, its `closer` passed).
    @inline(__always)
    mutating func open(_ tag: JSONTape.Tag, closedBy closer: UInt8, depth: Int) throws(JSONSyntaxError) -> Int? {
        guard depth <= JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        let entry = open(tag)
        index += 1
        skipWhitespace()
        guard index < bytes.count && bytes[index] == closer else { return entry }
        index += 1
        close(entry, count: 0)
        return nil
    }

    /// Passes what follows an item or member of the container being parsed: its `,` (true:
    /// another comes) or the `closer` ending the container (false).
    @inline(__always)
    mutating func passSeparator(closedBy closer: UInt8, inside container: StaticString, after item: StaticString) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input inside \(container)") }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            return true
        case closer:
            index += 1
            return false
        default:
            throw error("unexpected \(describeCurrent()), expected ',' or '\(Character(Unicode.Scalar(closer)))' after \(item)")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) {
        guard let object = try open(.object, closedBy: UInt8(ascii: "}"), depth: depth) else { return }
        var count = 0
        // Whether a `type` string came before: the object is a node, its `children` a node list.
        var isNode = false
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
                throw error("unexpected \(describeCurrent()), expected a member name in double quotes")
            }
            try parseString()
            let key = entries.count - 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                let key = lastString()
                throw error("unexpected \(describeCurrent()), expected ':' after member name \(DiagnosticText.quoted(key))")
            }
            index += 1
            skipWhitespace()
            if defersNodeLists, isNode, depth >= 2, index < bytes.count, bytes[index] == UInt8(ascii: "["), isKey(key, "children") {
                try skimNodeList(depth: depth)
            } else {
                try parseValue(depth: depth)
                if defersNodeLists, !isNode, entries[key + 1].tag == .string, isKey(key, "type") { isNode = true }
            }
            count += 1
            guard try passSeparator(closedBy: UInt8(ascii: "}"), inside: "an object", after: "an object member") else {
                return close(object, count: count)
            }
        }
    }

    /// Whether the key entry at `key` (a string without escapes) is `name`.
    private func isKey(_ key: Int, _ name: StaticString) -> Bool {
        let entry = entries[key]
        guard entry.tag == .string, entry.payload - entry.offset - 1 == name.utf8CodeUnitCount else { return false }
        return memcmp(bytes.baseAddress! + entry.offset + 1, name.utf8Start, name.utf8CodeUnitCount) == 0
    }

    /// The node list at `index`, a member of an object at `depth`: skimmed past and kept as
    /// one unparsed entry when large, else parsed as usual.
    mutating func skimNodeList(depth: Int) throws(JSONSyntaxError) {
        let end: Int
        if let known = nodeListEnds[index] {
            end = known
        } else {
            end = try JSONSkim.end(ofValueAt: index, in: bytes, depth: depth, notingListsIn: &nodeListEnds)
        }
        guard end - index >= JSONParser.minimumDeferredBytes else { return try parseValue(depth: depth) }
        entries.append(JSONTape.Entry(tag: .unparsedArray, count: UInt32(depth), offset: index, payload: end))
        index = end
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) {
        guard let array = try open(.array, closedBy: UInt8(ascii: "]"), depth: depth) else { return }
        var count = 0
        while true {
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            try parseValue(depth: depth)
            count += 1
            guard try passArraySeparator() else { return close(array, count: count) }
        }
    }

    /// `passSeparator` after an array item (as `JSONParser.parseItem` passes one too).
    @inline(__always)
    mutating func passArraySeparator() throws(JSONSyntaxError) -> Bool {
        try passSeparator(closedBy: UInt8(ascii: "]"), inside: "an array", after: "an array item")
    }

    /// Appends the string starting at `index`, checked but left undecoded.
    mutating func parseString() throws(JSONSyntaxError) {
        let start = index
        index += 1
        // Fast path: no escapes, so the bytes are the string. Plain ASCII is passed 16 bytes
        // at a step; what stops the run is looked at here.
        while index < bytes.count {
            index = hybrid_json_string_run_end(bytes.baseAddress!, bytes.count, index)
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                entries.append(JSONTape.Entry(tag: .string, offset: start, payload: index))
                index += 1
                return
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error(byte == 0x0A ? "unterminated string" : "control character in a string; escape it") }
            try skipUTF8Character()
        }
        guard index < bytes.count else { throw error("unterminated string", at: start) }
        index = start
        _ = try decodeEscapedString()
        entries.append(JSONTape.Entry(tag: .escapedString, offset: start, payload: index - 1))
    }

    /// Reads the string starting at `index` (its opening quote), decoding escapes.
    mutating func decodeEscapedString() throws(JSONSyntaxError) -> [UInt8] {
        let start = index
        index += 1
        var scalars: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return scalars
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
                if byte >= 0x80 {
                    let start = index
                    try skipUTF8Character()
                    scalars.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    continue
                }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unterminated string", at: start)
    }

    /// Steps over the multi-byte UTF-8 character at `index` (RFC 3629: no overlong forms, no
    /// surrogates, nothing past U+10FFFF), or reports the first byte that breaks it, by its
    /// own value and offset.
    mutating func skipUTF8Character() throws(JSONSyntaxError) {
        let lead = bytes[index]
        // The length, and the range the second byte must be in (narrower after some leads).
        let length: Int
        let second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: throw error("invalid UTF-8: byte 0x\(String(lead, radix: 16)) cannot start a character")
        }
        for step in 1..<length {
            let position = index + step
            guard position < bytes.count else { throw error("invalid UTF-8: a character is cut off by the end of input", at: index) }
            let byte = bytes[position]
            guard step == 1 ? second.contains(byte) : (0x80...0xBF).contains(byte) else {
                // Named by the byte that began it: a lone Latin-1 letter (0xe9, é) is the usual cause.
                throw error("invalid UTF-8: byte 0x\(String(lead, radix: 16)) begins a \(length)-byte character but 0x\(String(byte, radix: 16)) follows (is the file UTF-8?)", at: index)
            }
        }
        index += length
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

    mutating func parseNumber() throws(JSONSyntaxError) {
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
        if isInteger, let value = integer(start..<index) {
            entries.append(JSONTape.Entry(tag: .integer, offset: start, payload: value))
            return
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else { throw error("invalid number", at: start) }
        // `1e999` reads as infinity, which no later step can use or write back as JSON.
        guard value.isFinite else { throw error("number out of range", at: start) }
        entries.append(JSONTape.Entry(tag: .number, offset: start, payload: Int(bitPattern: UInt(value.bitPattern))))
    }

    /// The integer spelt by `range` (an optional minus, then digits), or `nil` when it does not
    /// fit an `Int`; read directly rather than through a `String`.
    func integer(_ range: Range<Int>) -> Int? {
        let negative = bytes[range.lowerBound] == UInt8(ascii: "-")
        var value = 0
        // Accumulated as a negative number, which reaches `Int.min`.
        for position in (negative ? range.lowerBound + 1 : range.lowerBound)..<range.upperBound {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, underflow) = shifted.subtractingReportingOverflow(Int(bytes[position] - UInt8(ascii: "0")))
            guard !overflow, !underflow else { return nil }
            value = sum
        }
        if negative { return value }
        return value == Int.min ? nil : -value
    }

    /// The string of the entry just read (escapes decoded), for messages.
    func lastString() -> String {
        var reader = JSONReader(bytes: bytes)
        reader.index = entries[entries.count - 1].offset
        // Read once already, so this cannot fail.
        return String(decoding: try! reader.decodeEscapedString(), as: UTF8.self)
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
