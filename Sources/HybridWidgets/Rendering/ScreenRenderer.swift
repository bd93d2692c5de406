import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// Renders a screen document into cell buffers, frame after frame.
///
/// Evaluation errors render as empty values and are reported once each (by location and
/// message), never again on later frames, so a broken binding cannot flood a log.
public final class ScreenRenderer {
    /// The most views one frame resolves. Components and list items multiply views (a
    /// component using four copies of the next, ten deep, makes a million from 2 KB of JSON),
    /// so past this the first node left out shows an error marker, reported, and the rest
    /// are not drawn; `hybrid validate` warns when components alone can get there.
    public static let maximumViews = 10_000

    /// The document drawn.
    public let document: ScreenDocument
    private var reported = Set<Diagnostic>()
    private let staticViews = StaticViewCache()
    /// Builds components the document does not define (by a script's `ui.component`): the
    /// name and the evaluated props in, a node out (nil when there is no such component).
    public var externalComponents: ((String, JSONValue) -> Node?)?

    /// A renderer for `document`.
    public init(document: ScreenDocument) {
        self.document = document
        // The first frame keeps a view for nearly every node; room for all of them up front
        // spares rehashing the cache as it grows.
        staticViews.views.reserveCapacity(Self.nodeCount(document.body))
    }

    /// Nodes decoded so far (a cold subtree is not decoded to be counted).
    private static func nodeCount(_ node: Node) -> Int {
        (node.childNodes.decodedNodes ?? []).reduce(1) { $0 + nodeCount($1) }
    }

    /// The outcome of rendering one frame.
    public struct Frame {
        /// The drawn cells.
        public var buffer: Buffer
        /// The laid-out view tree (for hit testing and focus).
        public var root: View?
        /// Problems found in this frame that were not reported before.
        public var newDiagnostics: [Diagnostic]
        /// Problems of the document itself, not reported before, found decoding a cold subtree
        /// this frame drew first (`ScreenDocument.Decoding.asDrawn`): what `load` would have
        /// reported of a document decoded whole.
        public var newDocumentDiagnostics: [Diagnostic] = []
        /// The app store paths this frame read.
        public var storeReads: Set<String> = []
    }

    /// Lays out and draws the screen for `state` and the app store's `store` into a buffer of `size`.
    public func render(state: JSONValue, store: JSONValue = .object(JSONObject()), interaction: Interaction = Interaction(),
                       width: Int, height: Int) -> Frame {
        var buffer = Buffer(width: width, height: height)
        var resolver = Resolver(context: FrameContext(document: document, interaction: interaction, externalComponents: externalComponents),
                                staticViews: staticViews)
        let reads = StoreReads()
        let root = resolver.view(for: document.body, in: StateScope(state: state, store: store, storeReads: reads),
                                 inheriting: .plain, parent: .vertical)
        resolver.focus.root = root
        let area = Rect(x: 0, y: 0, width: width, height: height)
        if let root {
            LayoutEngine.layout(root, in: area)
            Painter.draw(root, into: &buffer, clip: area)
        }
        let problems = resolver.problems + staticViews.laterProblems
        let documentProblems = resolver.documentProblems + staticViews.laterDocumentProblems
        (staticViews.laterProblems, staticViews.laterDocumentProblems) = ([], [])
        return Frame(buffer: buffer, root: root, newDiagnostics: problems.filter { reported.insert($0).inserted },
                     newDocumentDiagnostics: documentProblems.filter { reported.insert($0).inserted }, storeReads: reads.paths)
    }
}
