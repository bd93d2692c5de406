import HybridCells

extension Color {
    /// This colour as the terminal can show it, or nil (terminal default) under `.none`.
    ///
    /// - `.trueColor`: unchanged (an `.ansi` value above 15 becomes `.indexed`).
    /// - `.ansi256`: `.rgb` becomes the nearest entry of the colour cube or grey ramp
    ///   (16–231, 232–255; the first 16 entries are skipped because themes redefine them).
    /// - `.ansi16`: `.indexed` 0–15 becomes `.ansi`; other indexed and rgb colours become the
    ///   nearest of the 16 ANSI colours, measured against xterm's default palette.
    public func degraded(to support: ColorSupport) -> Color? {
        switch support {
        case .none:
            return nil
        case .trueColor:
            if case .ansi(let n) = self, n > 15 { return .indexed(n) }
            return self
        case .ansi256:
            switch self {
            case .ansi(let n): return n > 15 ? .indexed(n) : self
            case .indexed: return self
            case .rgb(let r, let g, let b): return .indexed(ColorPalette.nearest256(r, g, b))
            }
        case .ansi16:
            switch self {
            case .ansi(let n) where n < 16: return self
            case .ansi(let n), .indexed(let n):
                if n < 16 { return .ansi(n) }
                let (r, g, b) = ColorPalette.rgb(ofIndex: n)
                return .ansi(ColorPalette.nearest16(r, g, b))
            case .rgb(let r, let g, let b):
                return .ansi(ColorPalette.nearest16(r, g, b))
            }
        }
    }

    /// An RGB approximation of this colour (palette colours use xterm's default values).
    public var rgbApproximation: (red: UInt8, green: UInt8, blue: UInt8) {
        switch self {
        case .ansi(let n), .indexed(let n): return ColorPalette.rgb(ofIndex: n)
        case .rgb(let r, let g, let b): return (r, g, b)
        }
    }
}

/// The xterm palette and nearest-colour searches.
enum ColorPalette {
    /// xterm's default values for the 16 ANSI colours.
    static let ansi: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
        (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
        (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// Channel values of the 6×6×6 colour cube (indices 16–231).
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The RGB value of a 256-colour palette index.
    static func rgb(ofIndex n: UInt8) -> (UInt8, UInt8, UInt8) {
        if n < 16 { return ansi[Int(n)] }
        if n >= 232 {
            let level = UInt8(8 + 10 * (Int(n) - 232))
            return (level, level, level)
        }
        let i = Int(n) - 16
        return (UInt8(cubeLevels[i / 36]), UInt8(cubeLevels[i / 6 % 6]), UInt8(cubeLevels[i % 6]))
    }

    /// The palette index in 16–255 closest to an RGB colour.
    static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let (ri, gi, bi) = (cubeIndex(r), cubeIndex(g), cubeIndex(b))
        let cube = (cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
        let cubeDistance = distance(cube, (Int(r), Int(g), Int(b)))
        // Grey ramp: 8, 18, …, 238. Pick the step nearest the channel average.
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let greyStep = Swift.min(23, Swift.max(0, (average - 3) / 10))
        let grey = 8 + 10 * greyStep
        let greyDistance = distance((grey, grey, grey), (Int(r), Int(g), Int(b)))
        if greyDistance < cubeDistance { return UInt8(232 + greyStep) }
        return UInt8(16 + 36 * ri + 6 * gi + bi)
    }

    /// The ANSI colour (0–15) closest to an RGB colour.
    static func nearest16(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        var best = 0
        var bestDistance = Int.max
        for (i, c) in ansi.enumerated() {
            let d = distance((Int(c.0), Int(c.1), Int(c.2)), (Int(r), Int(g), Int(b)))
            if d < bestDistance {
                best = i
                bestDistance = d
            }
        }
        return UInt8(best)
    }

    /// The nearest cube level index for one channel (levels are 0, 95, 135, …, 255).
    private static func cubeIndex(_ v: UInt8) -> Int {
        let v = Int(v)
        if v < 48 { return 0 }
        if v < 115 { return 1 }
        return Swift.min(5, (v - 35) / 40)
    }

    /// Squared distance, weighted towards green as the eye is (a cheap "redmean" stand-in).
    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let dr = a.0 - b.0, dg = a.1 - b.1, db = a.2 - b.2
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }
}
