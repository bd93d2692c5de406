import Foundation
import HybridJSON

extension FunctionLibrary {
    /// String functions. Lengths and indices count UTF-16 code units, as DivKit's platforms do.
    mutating func registerStrings() {
        register("len", [.string]) { args in .integer(args.string(0).utf16.count) }
        register("contains", [.string, .string]) { args in
            .boolean(UTF16Search(Array(args.string(1).utf16)).first(in: Array(args.string(0).utf16)) != nil)
        }
        register("substring", [.string, .integer, .integer]) { args throws(ExpressionError) in
            let units = Array(args.string(0).utf16)
            let start = args.integer(1), end = args.integer(2)
            guard start >= 0, end <= units.count, start <= units.count, end >= 0 else {
                throw ExpressionError("Indexes are out of bounds.")
            }
            guard start <= end else { throw ExpressionError("Indexes should be in ascending order.") }
            return .string(String(decoding: units[start..<end], as: UTF16.self))
        }
        register("replaceAll", [.string, .string, .string]) { args throws(ExpressionError) in
            let (text, target, replacement) = (args.string(0), args.string(1), args.string(2))
            guard !target.isEmpty else { return .string(text) }
            // Each match may grow the text: the result's size is known before it is made.
            let units = Array(text.utf16)
            let matches = UTF16Search(Array(target.utf16)).all(in: units)
            let growth = replacement.utf8.count - target.utf8.count
            guard growth <= 0 || text.utf8.count + matches.count * growth <= ExpressionLimits.maximumStringBytes else {
                throw ExpressionError(ExpressionLimits.stringReason)
            }
            var result: [UInt16] = []
            var next = 0
            for match in matches {
                result += units[next..<match]
                result += replacement.utf16
                next = match + target.utf16.count
            }
            result += units[next...]
            return .string(String(decoding: result, as: UTF16.self))
        }
        register("index", [.string, .string]) { args in
            let text = args.string(0), needle = args.string(1)
            guard !needle.isEmpty else { return .integer(0) }
            return .integer(UTF16Search(Array(needle.utf16)).first(in: Array(text.utf16)) ?? -1)
        }
        register("lastIndex", [.string, .string]) { args in
            let text = args.string(0), needle = args.string(1)
            guard !needle.isEmpty else { return .integer(text.utf16.count) }
            let reversed = UTF16Search(Array(needle.utf16.reversed())).first(in: Array(text.utf16.reversed()))
            return .integer(reversed.map { text.utf16.count - $0 - needle.utf16.count } ?? -1)
        }
        register("trim", [.string]) { args in .string(args.string(0).trimmingCharacters(in: .whitespacesAndNewlines)) }
        register("trimLeft", [.string]) { args in
            .string(String(args.string(0).drop(while: { $0.isWhitespace })))
        }
        register("trimRight", [.string]) { args in
            let text = args.string(0)
            var end = text.endIndex
            while end > text.startIndex, text[text.index(before: end)].isWhitespace { end = text.index(before: end) }
            return .string(String(text[..<end]))
        }
        register("toUpperCase", [.string]) { args in .string(args.string(0).uppercased()) }
        register("toLowerCase", [.string]) { args in .string(args.string(0).lowercased()) }
        for first in [ExpressionType.string, .integer] {
            register("padStart", [first, .integer, .string]) { args throws(ExpressionError) in
                let text = args[0].displayString
                return .string(try FunctionLibrary.padding(text, args.integer(1), args.string(2)) + text)
            }
            register("padEnd", [first, .integer, .string]) { args throws(ExpressionError) in
                let text = args[0].displayString
                return .string(text + (try FunctionLibrary.padding(text, args.integer(1), args.string(2))))
            }
        }
        register("encodeUri", [.string]) { args in .string(FunctionLibrary.encodeURIComponent(args.string(0))) }
        register("decodeUri", [.string]) { args in .string(args.string(0).removingPercentEncoding ?? args.string(0)) }
        register("testRegex", [.string, .string]) { args throws(ExpressionError) in
            .boolean(try Self.regexMatches(args.string(0), pattern: args.string(1)))
        }
    }

    /// The fill that brings `text` to `length` UTF-16 units by repeating `pad`; empty when
    /// `text` is long enough or `pad` is empty; refused when it would pass
    /// ``ExpressionLimits/maximumStringBytes``, before anything is allocated.
    static func padding(_ text: String, _ length: Int, _ pad: String) throws(ExpressionError) -> String {
        // Compared before subtracting: a length near `Int.min` must not overflow.
        let count = text.utf16.count
        let missing = length > count ? length - count : 0
        let padUnits = Array(pad.utf16)
        guard missing > 0, !padUnits.isEmpty else { return "" }
        guard missing <= ExpressionLimits.maximumStringBytes - text.utf8.count else { throw ExpressionError(ExpressionLimits.stringReason) }
        let units = (0..<missing).map { padUnits[$0 % padUnits.count] }
        return String(decoding: units, as: UTF16.self)
    }

    /// Percent-encodes all but `A-Z a-z 0-9 - _ . ! ~ * ' ( )`, like JavaScript's
    /// `encodeURIComponent` (spaces become `%20`).
    static func encodeURIComponent(_ text: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()".utf8)
        var out = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }

    /// `testRegex`, with DivKit's texts for a pattern that is not one or takes too long.
    static func regexMatches(_ text: String, pattern: String) throws(ExpressionError) -> Bool {
        do throws(BoundedRegex.Failure) {
            return try BoundedRegex.matches(text, pattern: pattern)
        } catch .invalid {
            throw ExpressionError("Invalid regular expression.")
        } catch {
            throw ExpressionError("Regular expression takes too long to match.")
        }
    }
}

/// Finding a string in another by UTF-16 code units, as DivKit counts (Knuth–Morris–Pratt:
/// linear however the two repeat). Foundation's own search on Linux misreads a NUL in the
/// needle: `"000".contains("0\u{0}")` answered true, a range past the end, and
/// `replacingOccurrences` trapped — a one-line expression killed the process.
struct UTF16Search {
    private let needle: [UInt16]
    /// For each prefix of the needle, the length of its longest proper prefix that is also a suffix.
    private let fallback: [Int]

    init(_ needle: [UInt16]) {
        self.needle = needle
        var fallback = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in needle.indices.dropFirst() {
            while length > 0, needle[index] != needle[length] { length = fallback[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            fallback[index] = length
        }
        self.fallback = fallback
    }

    /// The offset of the first occurrence in `text` (0 for an empty needle), nil when none.
    func first(in text: [UInt16]) -> Int? {
        if needle.isEmpty { return 0 }
        return scan(text, stopAtFirst: true).first
    }

    /// The offsets of the occurrences in `text`, left to right, not overlapping.
    func all(in text: [UInt16]) -> [Int] {
        needle.isEmpty ? [] : scan(text, stopAtFirst: false)
    }

    private func scan(_ text: [UInt16], stopAtFirst: Bool) -> [Int] {
        var found: [Int] = []
        var matched = 0
        for (index, unit) in text.enumerated() {
            while matched > 0, unit != needle[matched] { matched = fallback[matched - 1] }
            if unit == needle[matched] { matched += 1 }
            if matched == needle.count {
                found.append(index - needle.count + 1)
                if stopAtFirst { return found }
                matched = 0
            }
        }
        return found
    }
}
