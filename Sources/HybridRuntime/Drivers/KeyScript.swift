import HybridDocument

/// The `--keys` script of a headless run: what to press, type and wait for, in order.
///
/// Space-separated items: key names (`tab`, `shift+tab`, `enter`, `esc`, `up`, `ctrl+c`, `f5`,
/// single characters…), `"quoted text"` typed character by character (`\"` and `\\` escape),
/// and `wait:200ms` (or `wait:1s`) to let timers run.
public struct KeyScript: Equatable, Sendable {
    /// One step.
    public enum Step: Equatable, Sendable {
        /// Press a key, by its canonical name.
        case key(String)
        /// Type text as is.
        case text(String)
        /// Let time pass (seconds).
        case wait(Double)
    }

    /// The steps in order.
    public var steps: [Step]

    /// Why a key script could not be read: the item and what is wrong with it.
    public struct ParseError: Error, Equatable, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Reads a key script.
    public init(parsing source: String) throws(ParseError) {
        var steps: [Step] = []
        var index = source.startIndex
        while index < source.endIndex {
            let character = source[index]
            if character.isWhitespace {
                index = source.index(after: index)
                continue
            }
            if character == "\"" {
                var text = ""
                var cursor = source.index(after: index)
                var closed = false
                while cursor < source.endIndex {
                    let next = source[cursor]
                    if next == "\\", source.index(after: cursor) < source.endIndex {
                        cursor = source.index(after: cursor)
                        text.append(source[cursor])
                    } else if next == "\"" {
                        closed = true
                        break
                    } else {
                        text.append(next)
                    }
                    cursor = source.index(after: cursor)
                }
                guard closed else { throw ParseError(description: "--keys: unterminated quoted text starting \(String(source[index...]).prefix(20))") }
                steps.append(.text(text))
                index = source.index(after: cursor)
                continue
            }
            let end = source[index...].firstIndex(where: \.isWhitespace) ?? source.endIndex
            let item = String(source[index..<end])
            steps.append(try Self.step(item))
            index = end
        }
        self.steps = steps
    }

    /// The longest `wait:` a script may ask for.
    static let longestWait = 3600.0

    private static func step(_ item: String) throws(ParseError) -> Step {
        if item.hasPrefix("wait:") {
            let amount = item.dropFirst(5)
            let seconds: Double?
            if amount.hasSuffix("ms") {
                seconds = Double(amount.dropLast(2)).map { $0 / 1000 }
            } else if amount.hasSuffix("s") {
                seconds = Double(amount.dropLast())
            } else {
                seconds = nil
            }
            guard let seconds, seconds >= 0 else {
                throw ParseError(description: "--keys: \"\(item)\": expected a wait like wait:200ms or wait:1s")
            }
            // Virtual time still runs every timer due in it: a day of a 1 ms interval is 86
            // million runs, and an infinite wait (wait:1e400ms) never ended.
            guard seconds <= Self.longestWait else {
                throw ParseError(description: "--keys: \"\(item)\": a wait is at most \(Int(Self.longestWait)) s (an hour)")
            }
            return .wait(seconds)
        }
        guard let name = KeyName.normalize(item) else {
            throw ParseError(description: "--keys: unknown key \"\(item)\"; use names like tab, shift+tab, enter, esc, up, ctrl+c, a single character, \"quoted text\" or wait:200ms")
        }
        return .key(name)
    }
}
