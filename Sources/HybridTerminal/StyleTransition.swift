import HybridCells

/// SGR (Select Graphic Rendition) output: the shortest sequence that turns the terminal's
/// current "pen" into the next cell's style. Both styles are already degraded to the colour
/// support, so every colour here is one the terminal understands.
enum StyleTransition {
    /// Appends the SGR sequence turning `current` into `target` (nothing when equal).
    ///
    /// Two candidates: switch individual attributes off (22, 23, 24, 27) and changes on, or
    /// reset (0) and set everything anew. The reset is only considered when some attribute
    /// must be turned off, and wins only when strictly shorter.
    static func append(from current: CellStyle, to target: CellStyle, into out: inout [UInt8]) {
        if current == target { return }
        let removed = current.attributes.subtracting(target.attributes)
        let incremental = parameters(from: current, to: target, removed: removed)
        if !removed.isEmpty {
            let reset = resetParameters(to: target)
            if reset.length < incremental.length {
                emit(reset, into: &out)
                return
            }
        }
        emit(incremental, into: &out)
    }

    /// A planned SGR sequence: which parts to write, and its parameter text length.
    struct Plan {
        var reset = false
        var offIntensity = false  // SGR 22 (ends bold and dim)
        var off: TextAttributes = []  // italic / underline / reverse to end (23, 24, 27)
        var on: TextAttributes = []
        var foreground: Color?? = nil   // .some(nil) = default colour (39)
        var background: Color?? = nil   // .some(nil) = default colour (49)
        var length = 0            // bytes between "ESC [" and "m"
        var count = 0             // number of parameters (for the ";" separators)

        mutating func add(_ bytes: Int) {
            length += bytes
            count += 1
        }
    }

    private static func parameters(from current: CellStyle, to target: CellStyle, removed: TextAttributes) -> Plan {
        var plan = Plan()
        var kept = current.attributes
        if removed.contains(.bold) || removed.contains(.dim) {
            // 22 ends both bold and dim: whichever should stay is switched back on below.
            plan.offIntensity = true
            plan.add(2)
            kept.subtract([.bold, .dim])
        }
        plan.off = removed.intersection([.italic, .underline, .reverse])
        for _ in 0..<attributeCount(plan.off) { plan.add(2) }
        kept.subtract(removed)
        plan.on = target.attributes.subtracting(kept)
        for _ in 0..<attributeCount(plan.on) { plan.add(1) }
        if current.foreground != target.foreground {
            plan.foreground = .some(target.foreground)
            plan.add(colorLength(target.foreground, base: 30))
        }
        if current.background != target.background {
            plan.background = .some(target.background)
            plan.add(colorLength(target.background, base: 40))
        }
        plan.length += Swift.max(0, plan.count - 1)
        return plan
    }

    private static func resetParameters(to target: CellStyle) -> Plan {
        var plan = Plan()
        plan.reset = true
        plan.add(1)
        plan.on = target.attributes
        for _ in 0..<attributeCount(plan.on) { plan.add(1) }
        if let fg = target.foreground {
            plan.foreground = .some(fg)
            plan.add(colorLength(fg, base: 30))
        }
        if let bg = target.background {
            plan.background = .some(bg)
            plan.add(colorLength(bg, base: 40))
        }
        plan.length += Swift.max(0, plan.count - 1)
        return plan
    }

    private static func emit(_ plan: Plan, into out: inout [UInt8]) {
        out.appendCSI()
        var first = true
        func separate(_ out: inout [UInt8]) {
            if first { first = false } else { out.append(0x3B) }
        }
        if plan.reset {
            separate(&out)
            out.append(0x30)
        }
        if plan.offIntensity {
            separate(&out)
            out.appendASCII("22")
        }
        for (flag, code) in attributeCodes where plan.off.contains(flag) {
            separate(&out)
            out.append(0x32)   // "2x" turns attribute x off
            out.append(code)
        }
        for (flag, code) in attributeCodes where plan.on.contains(flag) {
            separate(&out)
            out.append(code)
        }
        if let fg = plan.foreground {
            separate(&out)
            appendColor(fg, base: 30, into: &out)
        }
        if let bg = plan.background {
            separate(&out)
            appendColor(bg, base: 40, into: &out)
        }
        out.append(0x6D)   // "m"
    }

    /// Attribute flags and the ASCII digit of their SGR code, in emission order.
    private static let attributeCodes: [(TextAttributes, UInt8)] = [
        (.bold, 0x31), (.dim, 0x32), (.italic, 0x33), (.underline, 0x34), (.reverse, 0x37),
    ]

    private static func attributeCount(_ a: TextAttributes) -> Int {
        (a.rawValue & 0x1F).nonzeroBitCount
    }

    /// Parameter length of a colour; `base` is 30 (foreground) or 40 (background).
    private static func colorLength(_ color: Color?, base: Int) -> Int {
        switch color {
        case nil: return 2                                   // 39 / 49
        case .ansi(let n)?: return n < 8 || base == 30 ? 2 : 3   // 3x/4x, 9x, 10x
        case .indexed(let n)?: return 5 + decimalLength(Int(n))  // 38;5;n
        case .rgb(let r, let g, let b)?:
            return 7 + decimalLength(Int(r)) + decimalLength(Int(g)) + decimalLength(Int(b))
        }
    }

    private static func appendColor(_ color: Color?, base: Int, into out: inout [UInt8]) {
        switch color {
        case nil:
            out.appendDecimal(base + 9)
        case .ansi(let n)?:
            out.appendDecimal(n < 8 ? base + Int(n) : base + 60 + Int(n) - 8)
        case .indexed(let n)?:
            out.appendDecimal(base + 8)
            out.appendASCII(";5;")
            out.appendDecimal(Int(n))
        case .rgb(let r, let g, let b)?:
            out.appendDecimal(base + 8)
            out.appendASCII(";2;")
            out.appendDecimal(Int(r))
            out.append(0x3B)
            out.appendDecimal(Int(g))
            out.append(0x3B)
            out.appendDecimal(Int(b))
        }
    }
}
