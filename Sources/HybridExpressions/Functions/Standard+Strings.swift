import Foundation
import HybridJSON

extension FunctionLibrary {
    /// String functions. Lengths and indices count UTF-16 code units, as DivKit's platforms do.
    mutating func registerStrings() {
        register("len", [.string]) { args in .integer(args.string(0).utf16.count) }
        register("contains", [.string, .string]) { args in
            let needle = args.string(1)
            return .boolean(needle.isEmpty || args.string(0).contains(needle))
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
            let matches = text.components(separatedBy: target).count - 1
            let growth = replacement.utf8.count - target.utf8.count
            guard growth <= 0 || text.utf8.count + matches * growth <= ExpressionLimits.maximumStringBytes else {
                throw ExpressionError(ExpressionLimits.stringReason)
            }
            return .string(text.replacingOccurrences(of: target, with: replacement))
        }
        register("index", [.string, .string]) { args in
            let text = args.string(0), needle = args.string(1)
            guard !needle.isEmpty else { return .integer(0) }
            guard let range = text.range(of: needle) else { return .integer(-1) }
            return .integer(text.utf16.distance(from: text.startIndex, to: range.lowerBound))
        }
        register("lastIndex", [.string, .string]) { args in
            let text = args.string(0), needle = args.string(1)
            guard !needle.isEmpty else { return .integer(text.utf16.count) }
            guard let range = text.range(of: needle, options: .backwards) else { return .integer(-1) }
            return .integer(text.utf16.distance(from: text.startIndex, to: range.lowerBound))
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
