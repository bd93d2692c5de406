import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `spinner`: a turning braille glyph and an optional label; frames keep coming while one shows.
struct Spinner: Widget {
    static let typeName = "spinner"
    static let fields = ["label"]
    /// Frames in order (braille dots, as most terminal spinners use); frame 0 is the resting look.
    static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    let label: PropertyValue?

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Spinner? {
        Spinner(label: decoder.optional(json, "label") { $0.textProperty($1) })
    }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        place.view(Content(label: resolver.string(label, in: place.scope)), sizedByContent: true)
    }

    struct Content: ViewContent {
        let label: String?

        var animates: Bool { true }

        func size(of view: View, maxWidth: Int) -> Size {
            Size(width: label.map { DisplayWidth.of($0) + 2 } ?? 1, height: 1)
        }

        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            let frame = Spinner.frames[view.tick % Spinner.frames.count]
            Painter.write(frame + (label.map { " " + $0 } ?? ""), style: view.cellStyle,
                          x: area.inner.x, y: area.inner.y, into: &buffer, clip: area.clip)
        }
    }
}
