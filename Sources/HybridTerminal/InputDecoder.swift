/// Turns the bytes a terminal sends into key, paste and mouse events.
///
/// Bytes arrive in arbitrary pieces: an escape sequence or a UTF-8 character may be split
/// between reads, so whatever is incomplete waits for the next `feed`. A lone ESC is ambiguous
/// (the Esc key, or the start of a sequence still in flight); the caller resolves it by calling
/// `flush()` when no more input came within a short time.
///
/// The terminal's answers to the session's questions (`TerminalCapabilities.query`) arrive in
/// the same stream; they are kept apart as reports (`takeReports()`), never taken for keys.
/// Keys of the kitty keyboard protocol (`ESC [ code ; modifiers[:event] u`) are read with
/// exact modifiers; its key releases are dropped (screens bind presses), repeats are presses.
public struct InputDecoder: Sendable {
    private var pending: [UInt8] = []
    private var pasting: [UInt8]?
    private var reports: [TerminalReport] = []

    /// A decoder with nothing pending.
    public init() {}

    /// Whether an ESC is waiting to learn what it starts (the caller should `flush()` after a
    /// short pause). An open paste is not: it waits for its end marker however long it takes.
    public var hasPending: Bool { pasting == nil && pending.first == 0x1B }

    /// Decodes `bytes` (appended to anything pending) into events.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        var events: [InputEvent] = []
        while !pending.isEmpty {
            if pasting != nil {
                guard consumePaste(into: &events) else { break }
                continue
            }
            guard let (event, length) = decode(pending[...]) else { break }
            pending.removeFirst(length)
            if let event { events.append(event) }
        }
        return events
    }

    /// The terminal's answers decoded since the last call.
    public mutating func takeReports() -> [TerminalReport] {
        defer { reports.removeAll() }
        return reports
    }

    /// Gives up waiting: a pending lone ESC is the Esc key, ESC + byte is Alt + key, and any
    /// other incomplete bytes are dropped.
    public mutating func flush() -> [InputEvent] {
        // A paste split across reads (a slow link) must not be cut into typed keys.
        guard pasting == nil else { return [] }
        defer { pending.removeAll() }
        guard pending.first == 0x1B else { return [] }
        if pending.count == 1 { return [.key("esc")] }
        var rest = InputDecoder()
        let events = rest.feed(pending.dropFirst())
        return events.map { event in
            if case .key(let name) = event { return .key(Self.withAlt(name)) }
            return event
        }
    }

    // MARK: Decoding one event

    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    private mutating func consumePaste(into events: inout [InputEvent]) -> Bool {
        // Everything up to ESC [ 201 ~ is text, escape bytes included.
        if let end = pending.firstRange(of: Self.pasteEnd) {
            pasting!.append(contentsOf: pending[..<end.lowerBound])
            events.append(.paste(Self.pastedText(pasting!)))
            pasting = nil
            pending.removeSubrange(..<end.upperBound)
            return true
        }
        // Keep a tail that could be the start of the end marker.
        let keep = min(pending.count, Self.pasteEnd.count - 1)
        pasting!.append(contentsOf: pending.dropLast(keep))
        pending = Array(pending.suffix(keep))
        return false
    }

    /// Pasted bytes as text, with the terminal's CR and CR LF line ends made LF.
    private static func pastedText(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 0x0A && previous == 0x0D { previous = byte; continue }
            text.append(byte == 0x0D ? 0x0A : byte)
            previous = byte
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The event at the start of `bytes` and how many bytes it used; nil when incomplete.
    /// A nil event with a length skips bytes that mean nothing.
    private mutating func decode(_ bytes: ArraySlice<UInt8>) -> (InputEvent?, Int)? {
        let first = bytes.first!
        switch first {
        case 0x1B:
            return decodeEscape(bytes)
        case 0x0D, 0x0A: return (.key("enter"), 1)
        case 0x09: return (.key("tab"), 1)
        case 0x7F, 0x08: return (.key("backspace"), 1)
        case 0x00: return (.key("ctrl+space"), 1)
        case 0x01...0x1A: return (.key("ctrl+" + String(UnicodeScalar(first + 0x60))), 1)
        case 0x1C: return (.key("ctrl+\\"), 1)
        case 0x1D...0x1F: return (nil, 1)
        case 0x20: return (.key("space"), 1)
        default:
            return decodeText(bytes)
        }
    }

    private func decodeText(_ bytes: ArraySlice<UInt8>) -> (InputEvent?, Int)? {
        let first = bytes.first!
        let length: Int
        switch first {
        case 0x00..<0x80: length = 1
        case 0xC0..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        case 0xF0..<0xF8: length = 4
        default: return (nil, 1)
        }
        guard bytes.count >= length else { return nil }
        let text = String(decoding: bytes.prefix(length), as: UTF8.self)
        return (.key(text), length)
    }

    private mutating func decodeEscape(_ bytes: ArraySlice<UInt8>) -> (InputEvent?, Int)? {
        guard bytes.count >= 2 else { return nil }
        let second = bytes[bytes.startIndex + 1]
        switch second {
        case UInt8(ascii: "["):
            return decodeCSI(bytes)
        case UInt8(ascii: "O"):
            guard bytes.count >= 3 else { return nil }
            let final = bytes[bytes.startIndex + 2]
            return (Self.ss3Keys[final].map { .key($0) }, 3)
        case 0x1B:
            return (.key("esc"), 1)
        default:
            // ESC followed by a key is that key with Alt.
            guard let (event, length) = decode(bytes.dropFirst()) else { return nil }
            if case .key(let name)? = event { return (.key(Self.withAlt(name)), length + 1) }
            return (event, length + 1)
        }
    }

    /// `name` with Alt held, modifiers kept in the canonical `ctrl+alt+shift+` order.
    private static func withAlt(_ name: String) -> String {
        if name.hasPrefix("alt+") || name.hasPrefix("ctrl+alt+") { return name }
        if name.hasPrefix("ctrl+") { return "ctrl+alt+" + name.dropFirst(5) }
        return "alt+" + name
    }

    private static let ss3Keys: [UInt8: String] = [
        UInt8(ascii: "A"): "up", UInt8(ascii: "B"): "down", UInt8(ascii: "C"): "right", UInt8(ascii: "D"): "left",
        UInt8(ascii: "H"): "home", UInt8(ascii: "F"): "end",
        UInt8(ascii: "P"): "f1", UInt8(ascii: "Q"): "f2", UInt8(ascii: "R"): "f3", UInt8(ascii: "S"): "f4",
        // rxvt's ctrl+arrows.
        UInt8(ascii: "a"): "ctrl+up", UInt8(ascii: "b"): "ctrl+down", UInt8(ascii: "c"): "ctrl+right", UInt8(ascii: "d"): "ctrl+left",
    ]

    private static let csiLetters: [UInt8: String] = [
        UInt8(ascii: "A"): "up", UInt8(ascii: "B"): "down", UInt8(ascii: "C"): "right", UInt8(ascii: "D"): "left",
        UInt8(ascii: "H"): "home", UInt8(ascii: "F"): "end",
        UInt8(ascii: "P"): "f1", UInt8(ascii: "Q"): "f2", UInt8(ascii: "R"): "f3", UInt8(ascii: "S"): "f4",
    ]

    private static let tildeKeys: [Int: String] = [
        1: "home", 2: "insert", 3: "delete", 4: "end", 5: "pageup", 6: "pagedown", 7: "home", 8: "end",
        11: "f1", 12: "f2", 13: "f3", 14: "f4", 15: "f5", 17: "f6", 18: "f7", 19: "f8", 20: "f9", 21: "f10", 23: "f11", 24: "f12",
    ]

    private mutating func decodeCSI(_ bytes: ArraySlice<UInt8>) -> (InputEvent?, Int)? {
        // ESC [ parameters (0x30–0x3F)* intermediates (0x20–0x2F)* final (0x40–0x7E)
        var index = bytes.startIndex + 2
        while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) { index += 1 }
        guard index < bytes.endIndex else {
            // A sequence longer than any real one is garbage, not a sequence in flight.
            return bytes.count > 64 ? (nil, bytes.count) : nil
        }
        let final = bytes[index]
        let length = index - bytes.startIndex + 1
        let body = String(decoding: bytes[(bytes.startIndex + 2)..<index], as: UTF8.self)
        if body.hasPrefix("<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
            return (Self.mouse(body.dropFirst(), released: final == UInt8(ascii: "m")).map { .mouse($0) }, length)
        }
        if body.hasPrefix("?") {
            if let report = Self.report(body.dropFirst(), final: final) { reports.append(report) }
            return (nil, length)
        }
        // Parameters are `;`-separated fields of `:`-separated parts; the kitty protocol puts
        // the event type (1 press, 2 repeat, 3 release) after the modifiers: `5:3`.
        let fields = body.split(separator: ";", omittingEmptySubsequences: false).map { $0.split(separator: ":", omittingEmptySubsequences: false) }
        if fields.count > 1, fields[1].count > 1, fields[1][1] == "3" { return (nil, length) }
        let numbers = fields.map { $0.first.flatMap(Self.parameter) ?? 1 }
        let modifiers = numbers.count > 1 ? Self.modifierPrefix(numbers[1]) : ""
        switch final {
        case UInt8(ascii: "~"):
            if numbers.first == 200 {
                pasting = []
                return (nil, length)
            }
            // xterm's modifyOtherKeys form of a modified key: ESC [ 27 ; modifiers ; code ~.
            if numbers.first == 27, numbers.count == 3 {
                return (Self.codeKey(numbers[2]).map { .key(Self.modifierPrefix(numbers[1]) + $0) }, length)
            }
            guard let key = numbers.first.flatMap({ Self.tildeKeys[$0] }) else { return (nil, length) }
            return (.key(modifiers + key), length)
        case UInt8(ascii: "u"):
            // The kitty keyboard protocol's ESC [ code ; modifiers u (also how ctrl+enter
            // arrives from terminals that send CSI u without being asked).
            guard let code = fields.first?.first.flatMap(Self.parameter) else { return (nil, length) }
            return (Self.codeKey(code).map { .key(modifiers + $0) }, length)
        case UInt8(ascii: "Z"):
            return (.key("shift+tab"), length)
        default:
            guard let key = Self.csiLetters[final] else { return (nil, length) }
            return (.key(modifiers + key), length)
        }
    }

    /// The key a Unicode code point names in a modified-key sequence: `enter`, `tab`, `esc`,
    /// `backspace`, `space`, or the character itself (lower case: the modifiers say the rest).
    private static func codeKey(_ code: Int) -> String? {
        switch code {
        case 13: return "enter"
        case 9: return "tab"
        case 27: return "esc"
        case 8, 127: return "backspace"
        case 32: return "space"
        default:
            // The kitty protocol's own keys (keypad, media, lone modifiers) sit in the
            // private-use area from 57344: no screen names them.
            guard code > 32, !(0xE000...0xF8FF).contains(code), let scalar = UnicodeScalar(code) else { return nil }
            return String(Character(scalar))
        }
    }

    /// An answer to the session's questions: `body` is what follows `ESC [ ?`.
    private static func report(_ body: Substring, final: UInt8) -> TerminalReport? {
        switch final {
        case UInt8(ascii: "u"):
            return parameter(body).map { .keyboardFlags($0) }
        case UInt8(ascii: "y") where body.hasSuffix("$"):
            let parts = body.dropLast().split(separator: ";")
            guard parts.count == 2, let mode = parameter(parts[0]), let state = parameter(parts[1]) else { return nil }
            return .mode(mode, state: state)
        case UInt8(ascii: "c"):
            return .deviceAttributes
        default:
            return nil
        }
    }

    /// A numeric parameter of a control sequence: ASCII digits only, at most six of them. What a
    /// terminal sends is small and never signed; anything else (`-9223372036854775808`, which
    /// `Int(_:)` reads and whose arithmetic would trap) is not a parameter.
    static func parameter(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 6, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }

    /// `ctrl+alt+shift+` from an xterm modifier parameter (1 + shift·1 + alt·2 + ctrl·4).
    private static func modifierPrefix(_ parameter: Int) -> String {
        let bits = max(0, parameter - 1)
        var prefix = ""
        if bits & 4 != 0 { prefix += "ctrl+" }
        if bits & 2 != 0 { prefix += "alt+" }
        if bits & 1 != 0 { prefix += "shift+" }
        return prefix
    }

    private static func mouse(_ body: Substring, released: Bool) -> MouseEvent? {
        let parts = body.split(separator: ";").compactMap(Self.parameter)
        guard parts.count == 3 else { return nil }
        let code = parts[0]
        var modifiers: [String] = []
        if code & 4 != 0 { modifiers.append("shift") }
        if code & 8 != 0 { modifiers.append("alt") }
        if code & 16 != 0 { modifiers.append("ctrl") }
        let button = code & 3
        let kind: MouseEvent.Kind
        // Buttons 8-11 (back, forward…) are not ours to read as clicks.
        if code & 128 != 0 { return nil }
        if code & 64 != 0 {
            // 64/65 are the vertical wheel; 66/67 the horizontal one, which nothing uses.
            switch button {
            case 0: kind = .scrollUp
            case 1: kind = .scrollDown
            default: return nil
            }
        } else if code & 32 != 0 {
            kind = button == 3 ? .move : .drag(button: button)
        } else {
            kind = released ? .release(button: button) : .press(button: button)
        }
        return MouseEvent(kind: kind, x: parts[1] - 1, y: parts[2] - 1, modifiers: modifiers)
    }
}
