import Foundation

extension FunctionLibrary {
    /// Colour constructors and component getters/setters (components as numbers 0...1).
    mutating func registerColors() {
        let outOfRange = ExpressionError("Value out of range 0..1.")
        @Sendable func component(_ value: Double) throws(ExpressionError) -> UInt8 {
            guard value >= 0 && value <= 1 else { throw outOfRange }
            return UInt8((value * 255).rounded(.toNearestOrAwayFromZero))
        }
        register("argb", [.number, .number, .number, .number]) { args throws(ExpressionError) in
            .color(ExpressionColor(alpha: try component(args.number(0)), red: try component(args.number(1)),
                                   green: try component(args.number(2)), blue: try component(args.number(3))))
        }
        register("rgb", [.number, .number, .number]) { args throws(ExpressionError) in
            .color(ExpressionColor(alpha: 255, red: try component(args.number(0)),
                                   green: try component(args.number(1)), blue: try component(args.number(2))))
        }

        // (name suffix, bit shift of the component in 0xAARRGGBB)
        let channels: [(String, UInt32)] = [("Alpha", 24), ("Red", 16), ("Green", 8), ("Blue", 0)]
        for (channel, shift) in channels {
            for receiver in [ExpressionType.color, .string] {
                register("getColor\(channel)", [receiver]) { args throws(ExpressionError) in
                    let color = try FunctionLibrary.colorArgument(args[0])
                    return .number(Double((color.argb >> shift) & 0xFF) / 255)
                }
                register("setColor\(channel)", [receiver, .number]) { args throws(ExpressionError) in
                    let color = try FunctionLibrary.colorArgument(args[0])
                    let value = UInt32(try component(args.number(1)))
                    return .color(ExpressionColor(argb: color.argb & ~(0xFF << shift) | value << shift))
                }
            }
        }
    }

    /// A colour argument given as a colour or as `#…` text.
    static func colorArgument(_ value: ExpressionValue) throws(ExpressionError) -> ExpressionColor {
        switch value {
        case .color(let color): return color
        case .string(let text):
            guard let color = ExpressionColor(hex: text) else {
                throw ExpressionError("Unable to convert value to Color, expected format #AARRGGBB.")
            }
            return color
        default:
            throw ExpressionError("Unable to convert value to Color, expected format #AARRGGBB.")
        }
    }

    /// Datetime basics, in UTC.
    mutating func registerDatetimes() {
        register("parseUnixTime", [.integer]) { args in
            .datetime(Date(timeIntervalSince1970: TimeInterval(args.integer(0))))
        }
        register("addMillis", [.datetime, .integer]) { args in
            .datetime(args.datetime(0).addingTimeInterval(TimeInterval(args.integer(1)) / 1000))
        }
        let parts: [(String, Calendar.Component)] = [
            ("getYear", .year), ("getMonth", .month), ("getDay", .day),
            ("getHours", .hour), ("getMinutes", .minute), ("getSeconds", .second),
        ]
        for (name, part) in parts {
            register(name, [.datetime]) { args in
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone(identifier: "UTC")!
                return .integer(calendar.component(part, from: args.datetime(0)))
            }
        }
        register("getMillis", [.datetime]) { args in
            let millis = Int((args.datetime(0).timeIntervalSince1970 * 1000).rounded(.down))
            return .integer(((millis % 1000) + 1000) % 1000)
        }
    }
}
