import Foundation

extension FunctionLibrary {
    /// `toString`, `toInteger`, `toNumber`, `toBoolean`, `toColor`, `toUrl`, and the
    /// `toString()` method on every type.
    mutating func registerConversions() {
        for type in ExpressionType.allCases where type != .datetime {
            register("toString", [type]) { args in .string(args[0].displayString) }
            registerMethod("toString", [type]) { args in .string(args[0].displayString) }
        }

        register("toInteger", [.boolean]) { args in .integer(args.boolean(0) ? 1 : 0) }
        register("toInteger", [.number]) { args throws(ExpressionError) in
            let value = args.number(0)
            // Doubles at or beyond ±2^63 do not fit, whatever their fraction.
            guard value.isFinite, value > -9.3e18, value < 9.3e18, let result = Int(exactly: value.rounded(.towardZero)) else {
                throw ExpressionError("Unable to convert value to Integer.")
            }
            return .integer(result)
        }
        register("toInteger", [.string]) { args throws(ExpressionError) in
            guard let value = Int(args.string(0)) else { throw ExpressionError("Unable to convert value to Integer.") }
            return .integer(value)
        }

        register("toNumber", [.integer]) { args in .number(Double(args.integer(0))) }
        register("toNumber", [.string]) { args throws(ExpressionError) in
            guard let value = FunctionLibrary.parseNumber(args.string(0)) else {
                throw ExpressionError("Unable to convert value to Number.")
            }
            return .number(value)
        }

        register("toBoolean", [.integer]) { args throws(ExpressionError) in
            switch args.integer(0) {
            case 0: return .boolean(false)
            case 1: return .boolean(true)
            default: throw ExpressionError("Unable to convert value to Boolean.")
            }
        }
        register("toBoolean", [.string]) { args throws(ExpressionError) in
            switch args.string(0) {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: throw ExpressionError("Unable to convert value to Boolean.")
            }
        }

        register("toColor", [.string]) { args throws(ExpressionError) in
            guard let color = ExpressionColor(hex: args.string(0)) else {
                throw ExpressionError("Unable to convert value to Color, expected format #AARRGGBB.")
            }
            return .color(color)
        }
        register("toUrl", [.string]) { args in .url(args.string(0)) }
    }

    /// Decimal text to a finite number: optional sign, digits with an optional fraction (or a
    /// leading `.`), optional exponent. Rejects "inf", "nan", hex and empty text, which
    /// `Double(_:)` would otherwise accept.
    static func parseNumber(_ text: String) -> Double? {
        guard !text.isEmpty,
              text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || "+-.eE".unicodeScalars.contains($0) }),
              let value = Double(text), value.isFinite
        else { return nil }
        return value
    }
}
