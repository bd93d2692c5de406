import Foundation

extension FunctionLibrary {
    /// Arithmetic and math functions, with DivKit's overflow and division-by-zero reasons.
    mutating func registerMath() {
        let overflow = ExpressionError(ExpressionError.integerOverflow)
        let divisionByZero = ExpressionError(ExpressionError.divisionByZero)

        register("div", [.integer, .integer]) { args throws(ExpressionError) in
            let (a, b) = (args.integer(0), args.integer(1))
            guard b != 0 else { throw divisionByZero }
            let result = a.dividedReportingOverflow(by: b)
            guard !result.overflow else { throw overflow }
            return .integer(result.partialValue)
        }
        register("div", [.number, .number]) { args throws(ExpressionError) in
            guard args.number(1) != 0 else { throw divisionByZero }
            return .number(args.number(0) / args.number(1))
        }
        register("mod", [.integer, .integer]) { args throws(ExpressionError) in
            guard args.integer(1) != 0 else { throw divisionByZero }
            return .integer(args.integer(0).remainderReportingOverflow(dividingBy: args.integer(1)).partialValue)
        }
        register("mod", [.number, .number]) { args throws(ExpressionError) in
            guard args.number(1) != 0 else { throw divisionByZero }
            return .number(args.number(0).truncatingRemainder(dividingBy: args.number(1)))
        }

        typealias IntFold = @Sendable (Int, Int) -> (partialValue: Int, overflow: Bool)
        let integerFolds: [(String, IntFold)] = [
            ("sum", { $0.addingReportingOverflow($1) }),
            ("sub", { $0.subtractingReportingOverflow($1) }),
            ("mul", { $0.multipliedReportingOverflow(by: $1) }),
        ]
        for (name, fold) in integerFolds {
            register(name, [.integer], variadic: true) { args throws(ExpressionError) in
                var total = args.integer(0)
                for index in 1..<args.count {
                    let step = fold(total, args.integer(index))
                    guard !step.overflow else { throw overflow }
                    total = step.partialValue
                }
                return .integer(total)
            }
        }
        let numberFolds: [(String, @Sendable (Double, Double) -> Double)] = [("sum", +), ("sub", -), ("mul", *)]
        for (name, fold) in numberFolds {
            register(name, [.number], variadic: true) { args in
                .number((1..<args.count).reduce(args.number(0)) { fold($0, args.number($1)) })
            }
        }

        register("max", [.integer], variadic: true) { args in .integer(args.indices.map { args.integer($0) }.max() ?? 0) }
        register("max", [.number], variadic: true) { args in .number(args.indices.map { args.number($0) }.max() ?? 0) }
        register("min", [.integer], variadic: true) { args in .integer(args.indices.map { args.integer($0) }.min() ?? 0) }
        register("min", [.number], variadic: true) { args in .number(args.indices.map { args.number($0) }.min() ?? 0) }
        register("maxInteger", []) { _ in .integer(Int.max) }
        register("minInteger", []) { _ in .integer(Int.min) }
        register("maxNumber", []) { _ in .number(Double.greatestFiniteMagnitude) }
        register("minNumber", []) { _ in .number(Double.leastNonzeroMagnitude) }

        register("abs", [.integer]) { args throws(ExpressionError) in
            guard args.integer(0) != Int.min else { throw overflow }
            return .integer(Swift.abs(args.integer(0)))
        }
        register("abs", [.number]) { args in .number(Swift.abs(args.number(0))) }
        register("signum", [.integer]) { args in .integer(args.integer(0).signum()) }
        register("signum", [.number]) { args in
            let value = args.number(0)
            return .number(value > 0 ? 1 : value < 0 ? -1 : value)
        }
        register("copySign", [.integer, .integer]) { args throws(ExpressionError) in
            let (magnitude, sign) = (args.integer(0), args.integer(1))
            if sign == 0 || (sign < 0) == (magnitude < 0) { return .integer(magnitude) }
            guard magnitude != Int.min else { throw overflow }
            return .integer(-magnitude)
        }
        register("copySign", [.number, .number]) { args in .number(Foundation.copysign(args.number(0), args.number(1))) }
        register("round", [.number]) { args in .number(args.number(0).rounded(.toNearestOrAwayFromZero)) }
        register("floor", [.number]) { args in .number(args.number(0).rounded(.down)) }
        register("ceil", [.number]) { args in .number(args.number(0).rounded(.up)) }

        register("pi", []) { _ in .number(Double.pi) }
        register("toRadians", [.number]) { args in .number(args.number(0) * Double.pi / 180) }
        register("toDegrees", [.number]) { args in .number(args.number(0) * 180 / Double.pi) }
        let trig: [(String, @Sendable (Double) -> Double)] = [
            ("sin", Foundation.sin), ("cos", Foundation.cos), ("tan", Foundation.tan),
            ("asin", Foundation.asin), ("acos", Foundation.acos), ("atan", Foundation.atan),
            ("cot", { 1 / Foundation.tan($0) }),
            // DivKit's ctan: the cotangent, exactly 0 where the cosine vanishes (pi/2).
            ("ctan", { x in
                let c = Foundation.cos(x), s = Foundation.sin(x)
                return Swift.abs(c) < 1e-15 ? 0 : c / s
            }),
        ]
        for (name, f) in trig {
            register(name, [.number]) { args in .number(f(args.number(0))) }
        }
    }
}
