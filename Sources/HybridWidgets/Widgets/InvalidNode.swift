import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// A node that could not be decoded, drawn as a red `[!] message` marker so the problem
/// shows where it is. Documents cannot name this type; the decoder makes it.
struct InvalidNode: Widget {
    static let typeName = "invalid"
    static let fields: [String] = []
    let message: String

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> InvalidNode? { nil }

    var isStatic: Bool { true }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        place.view(ErrorMarker(message: message))
    }
}

/// `[!] message` in bold red, cut to the width: a node that could not be decoded or resolved.
struct ErrorMarker: ViewContent {
    let message: String

    func size(of view: View, maxWidth: Int) -> Size {
        Size(width: min(DisplayWidth.of(message) + 4, max(maxWidth, 1)), height: 1)
    }

    func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
        let marker = CellStyle(foreground: .ansi(1), attributes: .bold)
        Painter.write(Painter.truncate("[!] " + message, to: max(0, area.inner.width)), style: marker,
                      x: area.inner.x, y: area.inner.y, into: &buffer, clip: area.clip)
    }
}
