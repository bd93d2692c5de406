import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `progress`: an optional label, a bar filled to `value` (0…1) and the percentage.
struct Progress: Widget {
    static let typeName = "progress"
    static let fields = ["value", "label"]
    static let isStaticWhenUnbound = true
    let value: PropertyValue
    let label: PropertyValue?

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Progress? {
        guard let value = decoder.required(json, "value", type: typeName, { $0.numberProperty($1) }) else { return nil }
        let fraction: Double? = switch value.constantValue {
        case .integer(let number)?: Double(number)
        case .number(let number)?: number
        default: nil
        }
        if let fraction, !(0...1).contains(fraction) {
            decoder.inKey("value") { $0.report("expected a number from 0 to 1, got \(value.constantValue!.jsonText)", at: json["value"]!.offset) }
        }
        return Progress(value: value, label: decoder.optional(json, "label") { $0.textProperty($1) })
    }

    var isStatic: Bool { areConstant(value, label) }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        let fraction = resolver.number(value, in: place.scope, node: place.node, field: "value") ?? 0
        // A value that is not a finite number (state a script wrote) draws as empty.
        let shown = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        return place.view(Content(value: shown, label: resolver.string(label, in: place.scope)))
    }

    struct Content: ViewContent {
        let value: Double
        let label: String?

        func size(of view: View, maxWidth: Int) -> Size {
            Size(width: (label.map { DisplayWidth.of($0) + 1 } ?? 0) + 25, height: 1)
        }

        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            let (inner, clip, style) = (area.inner, area.clip, view.cellStyle)
            var x = inner.x
            if let label, !label.isEmpty {
                Painter.write(label, style: style, x: x, y: inner.y, into: &buffer, clip: clip)
                x += DisplayWidth.of(label) + 1
            }
            let percent = " " + Painter.aligned("\(Int((value * 100).rounded()))%", width: 4, alignment: .right)
            let barWidth = max(0, inner.maxX - x - 5)
            let filled = Int((Double(barWidth) * value).rounded())
            Painter.rule("█", x: x, y: inner.y, width: filled, style: style, into: &buffer, clip: clip)
            Painter.rule("░", x: x + filled, y: inner.y, width: barWidth - filled, style: Painter.dimmed(style), into: &buffer, clip: clip)
            Painter.write(percent, style: style, x: x + barWidth, y: inner.y, into: &buffer, clip: clip)
        }
    }
}
