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

        for top in [ExpressionType.color, .string] {
            for bottom in [ExpressionType.color, .string] {
                register("alphaBlend", [top, bottom]) { args throws(ExpressionError) in
                    .color(FunctionLibrary.alphaBlend(try FunctionLibrary.colorArgument(args[1]),
                                                      over: try FunctionLibrary.colorArgument(args[0])))
                }
            }
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

    /// `alphaBlend(background, colour)`: the second colour drawn over the first (source-over),
    /// which is what DivKit's data expects (`alphaBlend('#FF0000', '#800000FF')` is `#FF7F0080`).
    static func alphaBlend(_ top: ExpressionColor, over bottom: ExpressionColor) -> ExpressionColor {
        let a = Double(top.alpha) / 255, b = Double(bottom.alpha) / 255
        let alpha = a + b * (1 - a)
        guard alpha > 0 else { return ExpressionColor(argb: 0) }
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 {
            let value = (Double(x) * a + Double(y) * b * (1 - a)) / alpha
            return UInt8(max(0, min(255, value.rounded())))
        }
        return ExpressionColor(alpha: UInt8((alpha * 255).rounded()), red: mix(top.red, bottom.red),
                               green: mix(top.green, bottom.green), blue: mix(top.blue, bottom.blue))
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
}
