import HybridCells
import HybridDocument
import HybridJSON
import HybridWidgets

/// One open screen: its document, its state, what the user did to it, and its last frame.
/// Touched on the app's loop thread only.
public final class Screen: @unchecked Sendable {
    /// The screen's name (its router name, or the document's id).
    public let name: String
    /// The decoded document (`ui.update` replaces it).
    public private(set) var document: ScreenDocument
    /// The text it came from, to locate errors.
    public private(set) var source: SourceText
    /// The name of the file (or URL) the screen was opened from.
    private let fileName: String
    /// The bundle's named styles the document was read with, to read it again the same way.
    private let theme: NamedStyles
    /// The screen's state tree; `params` holds the query of the URL that opened it.
    public internal(set) var state: JSONValue
    /// Where its data blocks stand (SPEC §7.4); their values are in `state`.
    let data: ScreenData
    /// Focus, selections, scroll positions, carets.
    public internal(set) var interaction = Interaction()
    /// The focus (and selection) last scrolled into view: revealed once when it changes, so
    /// the wheel can still scroll away from it.
    var revealed: String?
    /// The view tree of the last frame (for focus order and clicks).
    public private(set) var root: View?
    /// The app store paths the last frame read: a change elsewhere in the store leaves it be.
    public private(set) var storeReads: Set<String> = []
    private(set) var renderer: ScreenRenderer
    /// Builds components scripts define; kept so `ui.update` can hand it to a new renderer.
    var externalComponents: ((String, JSONValue) -> Node?)? {
        didSet { renderer.externalComponents = externalComponents }
    }

    init(name: String, document: ScreenDocument, source: SourceText, params: JSONObject, theme: NamedStyles = NamedStyles()) {
        self.name = name
        self.theme = theme
        self.document = document
        self.source = source
        fileName = source.name
        var state = document.state.objectValue.map(JSONValue.object) ?? .object(JSONObject())
        state.setValue(.object(params), atPath: "params")
        self.state = state
        data = ScreenData(blocks: document.data)
        renderer = ScreenRenderer(document: document)
    }

    /// Merges `props` into the node whose `id` is `id` (SPEC §3 `ui.update`) by editing the
    /// document's JSON and decoding it again, so every check applies to the new props; on any
    /// error the screen keeps its document and the problems are returned.
    func update(id: String, props: JSONObject) -> [String] {
        guard var json = (try? JSONParser.parse(source.bytes))?.plain else { return ["\(source.name): cannot read the screen again"] }
        guard Self.merge(props, intoNodeWithID: id, in: &json) else { return ["ui.update(\"\(id)\"): no node with that id on \(name)"] }
        // Positions in the regenerated text are no place in the author's file: problems found
        // in it are named by their JSON path, and by the text's own name later on.
        let updated = SourceText(name: fileName + " (as ui.update left it)", text: json.jsonText)
        // Whole: an update with a problem anywhere in it is refused, not found once drawn.
        let load = ScreenDocument.load(updated, theme: theme, decoding: .whole)
        guard let document = load.value, !load.hasErrors else {
            return load.diagnostics.filter { $0.severity == .error }.map { "ui.update(\"\(id)\"): \($0.path): \($0.message)" }
        }
        self.document = document
        source = updated
        renderer = ScreenRenderer(document: document)
        renderer.externalComponents = externalComponents
        return []
    }

    private static func merge(_ props: JSONObject, intoNodeWithID id: String, in json: inout JSONValue) -> Bool {
        switch json {
        case .object(var object):
            if object["id"] == .string(id), object["type"] != nil {
                for member in props where member.key != "id" && member.key != "type" { object[member.key] = member.value }
                json = .object(object)
                return true
            }
            for member in object {
                var child = member.value
                if merge(props, intoNodeWithID: id, in: &child) {
                    object[member.key] = child
                    json = .object(object)
                    return true
                }
            }
            return false
        case .array(var items):
            for index in items.indices where merge(props, intoNodeWithID: id, in: &items[index]) {
                json = .array(items)
                return true
            }
            return false
        default:
            return false
        }
    }

    /// Draws the screen with the app store's `store` into a buffer of `width` by `height`;
    /// returns problems not reported before: the frame's, and the document's found decoding
    /// what it drew first.
    func render(width: Int, height: Int, store: JSONValue) -> (buffer: Buffer, problems: [Diagnostic], documentProblems: [Diagnostic]) {
        let frame = renderer.render(state: state, store: store, interaction: interaction, width: width, height: height)
        root = frame.root
        storeReads = frame.storeReads
        return (frame.buffer, frame.newDiagnostics, frame.newDocumentDiagnostics)
    }

    /// Focusable views of the last frame, in document order.
    var focusables: [View] {
        var found: [View] = []
        func visit(_ view: View) {
            if view.isFocusable { found.append(view) }
            view.interactiveChildren.forEach(visit)
        }
        root.map(visit)
        return found
    }

    /// The view with `key` in the last frame, found as `path(to:)` finds it.
    func view(withKey key: String) -> View? {
        path(to: key)?.last
    }

    /// The innermost focusable view showing at a cell of the last frame (clipping counts:
    /// a widget scrolled out of sight is not hit).
    func focusable(at x: Int, _ y: Int) -> View? {
        focusables.last { $0.visibleFrame.contains(x: x, y: y) }
    }

    /// The innermost scroll view showing at a cell of the last frame.
    func scrollView(at x: Int, _ y: Int) -> View? {
        var found: View?
        func visit(_ view: View) {
            guard view.visibleFrame.contains(x: x, y: y) else { return }
            if view.layoutStyle.arrangement == .scrolling { found = view }
            view.children.forEach(visit)
        }
        root.map(visit)
        return found
    }

    /// Whether the last frame shows a spinner (so frames must keep coming while it turns).
    var hasSpinner: Bool {
        func find(_ view: View) -> Bool {
            if view.animates { return true }
            return view.interactiveChildren.contains(where: find)
        }
        return root.map(find) ?? false
    }

    /// The views from the root down to the view with `key` in the last frame (nil when absent).
    /// Looked for among views that can take focus or hold what does (static views are not
    /// looked through: nothing in them is focused).
    func path(to key: String) -> [View]? {
        func path(to view: View) -> [View]? {
            if view.key == key { return [view] }
            for child in view.interactiveChildren {
                if let found = path(to: child) { return [view] + found }
            }
            return nil
        }
        return root.flatMap(path)
    }

    /// The scroll views around the view with `key`, innermost last.
    func scrollAncestors(of key: String) -> [View] {
        (path(to: key) ?? []).dropLast().filter { $0.layoutStyle.arrangement == .scrolling }
    }

    /// The focused view of the last frame, if any.
    public var focusedView: View? { interaction.focused.flatMap(view(withKey:)) }
}
