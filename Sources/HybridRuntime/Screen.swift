import HybridCells
import HybridDocument
import HybridJSON
import HybridWidgets

/// One open screen: its document, its state, what the user did to it, and its last frame.
/// Touched on the app's loop thread only.
public final class Screen: @unchecked Sendable {
    /// The screen's name (its router name, or the document's id).
    public let name: String
    /// The decoded document.
    public let document: ScreenDocument
    /// The text it came from, to locate errors.
    public let source: SourceText
    /// The screen's state tree; `params` holds the query of the URL that opened it.
    public internal(set) var state: JSONValue
    /// Focus, selections, scroll positions, carets.
    public internal(set) var interaction = Interaction()
    /// The view tree of the last frame (for focus order and clicks).
    public private(set) var root: View?
    let renderer: ScreenRenderer

    init(name: String, document: ScreenDocument, source: SourceText, params: JSONObject) {
        self.name = name
        self.document = document
        self.source = source
        var state = document.state.objectValue.map(JSONValue.object) ?? .object(JSONObject())
        state.setValue(.object(params), atPath: "params")
        self.state = state
        renderer = ScreenRenderer(document: document)
    }

    /// Draws the screen into a buffer of `width` by `height`; returns problems not reported before.
    func render(width: Int, height: Int) -> (buffer: Buffer, problems: [Diagnostic]) {
        let frame = renderer.render(state: state, interaction: interaction, width: width, height: height)
        root = frame.root
        return (frame.buffer, frame.newDiagnostics)
    }

    /// Focusable views of the last frame, in document order.
    var focusables: [View] {
        var found: [View] = []
        func visit(_ view: View) {
            if view.isFocusable { found.append(view) }
            view.children.forEach(visit)
        }
        root.map(visit)
        return found
    }

    /// The view with `key` in the last frame.
    func view(withKey key: String) -> View? {
        func find(_ view: View) -> View? {
            if view.key == key { return view }
            for child in view.children {
                if let match = find(child) { return match }
            }
            return nil
        }
        return root.flatMap(find)
    }

    /// The innermost focusable view at a cell of the last frame.
    func focusable(at x: Int, _ y: Int) -> View? {
        focusables.last { $0.frame.contains(x: x, y: y) }
    }

    /// Whether the last frame shows a spinner (so frames must keep coming while it turns).
    var hasSpinner: Bool {
        func find(_ view: View) -> Bool {
            if case .spinner = view.content { return true }
            return view.children.contains(where: find)
        }
        return root.map(find) ?? false
    }

    /// The focused view, if any.
    var focusedView: View? { interaction.focused.flatMap(view(withKey:)) }
}
