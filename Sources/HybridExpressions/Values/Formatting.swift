import HybridJSON
import Foundation

/// Number to text the way DivKit's reference implementation (Kotlin, i.e. Java's
/// `Double.toString`) prints it, so templates and error texts match the conformance data:
/// `5.0`, `123.45`, `1.0E23`, `3.24E-5`.
enum NumberFormatting {
    static func kotlinString(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let sign = value < 0 ? "-" : ""
        let (digits, exponent) = shortestDigits(abs(value))
        // Java prints plain decimals for 1e-3 <= |x| < 1e7 and scientific notation otherwise.
        if exponent >= -3 && exponent <= 6 {
            if exponent >= 0 {
                let whole = digits.count > exponent + 1
                    ? String(digits.prefix(exponent + 1))
                    : digits + String(repeating: "0", count: exponent + 1 - digits.count)
                let fraction = digits.count > exponent + 1 ? String(digits.dropFirst(exponent + 1)) : "0"
                return sign + whole + "." + fraction
            }
            return sign + "0." + String(repeating: "0", count: -exponent - 1) + digits
        }
        let fraction = digits.count > 1 ? String(digits.dropFirst()) : "0"
        return sign + String(digits.prefix(1)) + "." + fraction + "E" + String(exponent)
    }

    /// The shortest round-trip significant digits of a positive finite `value` and its
    /// scientific exponent (value = d.ddd × 10^exponent), taken from Swift's own shortest
    /// representation so no digits are invented.
    static func shortestDigits(_ value: Double) -> (String, Int) {
        let text = value.description
        var digits: String
        var exponent: Int
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            let mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...].replacingOccurrences(of: "+", with: "")) ?? 0
            digits = mantissa.replacingOccurrences(of: ".", with: "")
            // Swift writes one digit before the point; adjust if that ever changes.
            let beforePoint = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
            exponent += beforePoint - 1
        } else {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            let whole = String(parts[0])
            let fraction = parts.count > 1 ? String(parts[1]) : ""
            if whole != "0" {
                exponent = whole.count - 1
                digits = whole + fraction
            } else {
                let zeros = fraction.prefix(while: { $0 == "0" }).count
                exponent = -(zeros + 1)
                digits = String(fraction.dropFirst(zeros))
            }
        }
        while digits.count > 1 && digits.hasSuffix("0") { digits.removeLast() }
        while digits.count > 1 && digits.hasPrefix("0") {
            digits.removeFirst()
            exponent -= 1
        }
        return (digits, exponent)
    }
}

/// Datetime to text as DivKit shows it: `yyyy-MM-dd HH:mm:ss` in UTC.
enum DateFormatting {
    static func string(_ date: Date) -> String {
        let t = CivilTime(date)
        func pad(_ n: Int, _ width: Int = 2) -> String {
            let text = String(n)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(t.year, 4))-\(pad(t.month))-\(pad(t.day)) \(pad(t.hour)):\(pad(t.minute)):\(pad(t.second))"
    }
}

/// Dicts and arrays to compact JSON, keys sorted so output is stable.
enum JSONFormatting {
    static func string(_ value: ExpressionValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    private static func write(_ value: ExpressionValue, to out: inout String) {
        switch value {
        case .dict(let entries):
            out += "{"
            for (index, key) in entries.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                JSONText.appendQuoted(key, to: &out)
                out += ":"
                write(entries[key]!, to: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                write(item, to: &out)
            }
            out += "]"
        case .string(let text), .url(let text):
            JSONText.appendQuoted(text, to: &out)
        case .color, .datetime:
            JSONText.appendQuoted(value.displayString, to: &out)
        case .integer, .number, .boolean:
            out += value.displayString
        }
    }
}
