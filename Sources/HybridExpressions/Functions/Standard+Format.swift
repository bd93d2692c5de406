extension FunctionLibrary {
    /// `decimalFormat(value, pattern[, locale])` as a function and as a method on integers and
    /// numbers.
    mutating func registerFormatting() {
        for type in [ExpressionType.integer, .number] {
            let body: ExpressionFunction.Body = { args throws(ExpressionError) in
                let locale = args.count > 2 ? args.string(2) : ""
                return .string(try DecimalPattern.format(args[0], pattern: args.string(1), locale: locale))
            }
            register("decimalFormat", [type, .string], body)
            register("decimalFormat", [type, .string, .string], body)
            registerMethod("decimalFormat", [type, .string], body)
            registerMethod("decimalFormat", [type, .string, .string], body)
        }
    }
}

/// ICU-style decimal patterns: `#` and `0` digits, one `,` grouping and one `.` decimal point
/// (`#,###.##`, `000`, `.0#`), rounding half-even on the shortest decimal form of the value,
/// with the locale's separators and digits.
enum DecimalPattern {
    struct Symbols { var decimal: String, group: String, digits: [String]? }

    static func symbols(_ locale: String) -> Symbols {
        let tag = locale.lowercased()
        if tag.contains("-u-nu-hanidec") {
            return Symbols(decimal: ".", group: ",", digits: ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"])
        }
        let language = tag.split(separator: "-").first.map(String.init) ?? ""
        switch language {
        case "ru", "uk", "be", "kk", "pl", "cs", "sk", "fi", "sv", "nb", "no", "fr":
            return Symbols(decimal: ",", group: " ", digits: nil)
        case "de", "es", "it", "nl", "pt", "tr", "id", "da":
            return Symbols(decimal: ",", group: ".", digits: nil)
        case "ar":
            if tag.hasPrefix("ar-eg") || tag == "ar" || tag.hasPrefix("ar-sa") {
                return Symbols(decimal: "٫", group: "٬", digits: ["٠", "١", "٢", "٣", "٤", "٥", "٦", "٧", "٨", "٩"])
            }
            return Symbols(decimal: ",", group: ".", digits: nil)
        default:
            return Symbols(decimal: ".", group: ",", digits: nil)
        }
    }

    struct Pattern { var minInteger: Int, grouping: Int, minFraction: Int, maxFraction: Int, showsPoint: Bool }

    static func parse(_ pattern: String) throws(ExpressionError) -> Pattern {
        let bad = ExpressionError("Incorrect format pattern.")
        guard !pattern.isEmpty, pattern.allSatisfy({ "#0,.".contains($0) }) else { throw bad }
        let parts = pattern.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw bad }
        let integer = parts[0], fraction = parts.count == 2 ? parts[1] : ""
        guard !fraction.contains(","), !integer.hasSuffix(",") else { throw bad }
        // Fraction: zeros first, then hashes.
        guard !fraction.contains("#0") else { throw bad }
        var grouping = 0
        if let comma = integer.lastIndex(of: ",") {
            grouping = integer.distance(from: comma, to: integer.endIndex) - 1
        }
        return Pattern(minInteger: integer.filter { $0 == "0" }.count, grouping: grouping,
                       minFraction: fraction.filter { $0 == "0" }.count, maxFraction: fraction.count,
                       showsPoint: parts.count == 2 && fraction.isEmpty)
    }

    static func format(_ value: ExpressionValue, pattern: String, locale: String) throws(ExpressionError) -> String {
        let p = try parse(pattern)
        var negative = false
        var digits: [UInt8]  // significant digits
        var pointAt: Int     // digits before the decimal point (may be <= 0 or > count)
        switch value {
        case .integer(let v):
            negative = v < 0
            digits = Array(String(v.magnitude).utf8).map { $0 - 48 }
            pointAt = digits.count
        case .number(let v):
            guard v.isFinite else { return NumberFormatting.kotlinString(v) }
            negative = v < 0
            if v == 0 {
                digits = [0]; pointAt = 1
            } else {
                let (text, exponent) = NumberFormatting.shortestDigits(Swift.abs(v))
                digits = Array(text.utf8).map { $0 - 48 }
                pointAt = exponent + 1
            }
        default:
            throw ExpressionError("Incorrect format pattern.")
        }
        // Lay the digits out as integer and fraction parts.
        var integerDigits: [UInt8] = pointAt > 0
            ? Array(digits.prefix(pointAt)) + Array(repeating: 0, count: max(0, pointAt - digits.count))
            : []
        var fractionDigits: [UInt8] = pointAt >= 0
            ? Array(digits.dropFirst(pointAt))
            : Array(repeating: 0, count: -pointAt) + digits
        // Round half-even to maxFraction digits.
        if fractionDigits.count > p.maxFraction {
            let rest = fractionDigits[p.maxFraction...]
            let first = rest.first!
            let tail = rest.dropFirst().contains { $0 != 0 }
            fractionDigits = Array(fractionDigits.prefix(p.maxFraction))
            let last = fractionDigits.last ?? integerDigits.last ?? 0
            if first > 5 || (first == 5 && (tail || last % 2 == 1)) {
                var carry = true
                for i in fractionDigits.indices.reversed() where carry {
                    if fractionDigits[i] == 9 { fractionDigits[i] = 0 } else { fractionDigits[i] += 1; carry = false }
                }
                for i in integerDigits.indices.reversed() where carry {
                    if integerDigits[i] == 9 { integerDigits[i] = 0 } else { integerDigits[i] += 1; carry = false }
                }
                if carry { integerDigits.insert(1, at: 0) }
            }
        }
        while fractionDigits.count > p.minFraction, fractionDigits.last == 0 { fractionDigits.removeLast() }
        if fractionDigits.count < p.minFraction {
            fractionDigits += Array(repeating: 0, count: p.minFraction - fractionDigits.count)
        }
        while integerDigits.first == 0 { integerDigits.removeFirst() }
        if integerDigits.count < p.minInteger {
            integerDigits = Array(repeating: 0, count: p.minInteger - integerDigits.count) + integerDigits
        }
        if integerDigits.isEmpty && fractionDigits.isEmpty { integerDigits = [0] }
        let isZero = !integerDigits.contains { $0 != 0 } && !fractionDigits.contains { $0 != 0 }

        let symbols = symbols(locale)
        func text(_ d: UInt8) -> String { symbols.digits?[Int(d)] ?? String(d) }
        var out = negative && !isZero ? "-" : ""
        for (index, digit) in integerDigits.enumerated() {
            let remaining = integerDigits.count - index
            if p.grouping > 0, index > 0, remaining % p.grouping == 0 { out += symbols.group }
            out += text(digit)
        }
        if !fractionDigits.isEmpty || p.showsPoint { out += symbols.decimal }
        for digit in fractionDigits { out += text(digit) }
        return out
    }
}

extension FunctionLibrary {
    /// Functions that read the calling scope: `getIntegerValue('name', fallback)` and the
    /// others for each type (the variable if it has that type, else the fallback), and the
    /// stored-value getters (the host's stored value, else the fallback).
    mutating func registerVariableReaders() {
        let kinds: [(String, ExpressionType)] = [
            ("Integer", .integer), ("Number", .number), ("Boolean", .boolean), ("String", .string),
            ("Color", .color), ("Url", .url),
        ]
        for (word, type) in kinds {
            var fallbackTypes = [type]
            if type == .color || type == .url { fallbackTypes.append(.string) }
            for fallbackType in fallbackTypes {
                register(ExpressionFunction(name: "get\(word)Value", parameters: [.string, fallbackType]) {
                    (args: [ExpressionValue], scope: any ExpressionScope) throws(ExpressionError) in
                    if let value = scope.value(of: args.string(0)), value.type == type { return value }
                    return try FunctionLibrary.fallback(args[1], as: type)
                })
                register(ExpressionFunction(name: "getStored\(word)Value", parameters: [.string, fallbackType]) {
                    (args: [ExpressionValue], scope: any ExpressionScope) throws(ExpressionError) in
                    if let value = scope.storedValue(of: args.string(0)), value.type == type { return value }
                    return try FunctionLibrary.fallback(args[1], as: type)
                })
            }
        }
        // Arrays and dicts have no fallback: a missing one is an error.
        for type in [ExpressionType.array, .dict] {
            let word = type == .array ? "Array" : "Dict"
            register(ExpressionFunction(name: "getStored\(word)Value", parameters: [.string]) {
                (args: [ExpressionValue], scope: any ExpressionScope) throws(ExpressionError) in
                guard let value = scope.storedValue(of: args.string(0)), value.type == type else {
                    throw ExpressionError("Missing value.")
                }
                return value
            })
        }
    }
}
