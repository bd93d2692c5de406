import HybridDocument
import HybridFiles
import HybridJSON

/// A screen: its initial state, data blocks, key bindings, reusable components and view tree
/// (SPEC §2, §7.4).
public struct ScreenDocument: Sendable {
    /// The document format versions this runtime reads.
    public static let supportedFormats = [1]

    /// The screen's id (used by the router and `ui.screen`).
    public var id: String
    /// A title for the terminal window or header.
    public var title: String?
    /// The initial state tree (an object).
    public var state: JSONValue
    /// What the screen loads into its state (SPEC §7.4), in document order.
    public var data: [DataBlock]
    /// Key bindings in document order, as normalized key names (`ctrl+r`).
    public var keys: [(key: String, action: Action)]
    /// Node templates usable as `{"type": "component", "name": …}`.
    public var components: [String: Node]
    /// Run when the screen opens.
    public var onAppear: Action?
    /// The root of the view tree.
    public var body: Node
}

extension ScreenDocument {
    /// How much of a document `load` decodes.
    public enum Decoding: Sendable {
        /// Every node, with every problem reported by `load` (`hybrid validate`, `render`).
        case whole
        /// Large subtrees that bind nothing (`ColdSubtree`) when the renderer first draws
        /// them, so the first frame of a long static screen costs what it shows; their
        /// problems come, still located, with the frame that first draws them.
        case asDrawn
    }

    /// Reads a screen document, collecting every error rather than stopping at the first.
    /// Broken nodes become `.invalid`; the document is `nil` only when the text is not JSON,
    /// not an object, or of an unsupported format.
    /// - Parameters:
    ///   - theme: The styles nodes' classes start from (a bundle's theme file).
    ///   - decoding: Whether cold subtrees wait until drawn (as a running app draws screens).
    public static func load(_ source: SourceText, theme: NamedStyles = NamedStyles(), decoding: Decoding = .asDrawn) -> Loaded<ScreenDocument> {
        let json: SourceJSON
        do {
            json = try JSONParser.parse(source.bytes, deferringNodeLists: decoding == .asDrawn)
        } catch {
            return invalidJSON(error, in: source)
        }
        var decoder = DocumentDecoder(theme: theme)
        decoder.childDecoding = decoding == .whole ? .now : .whenCold
        let document = decoder.document(json)
        // Node lists the parser skimmed past and the decoder read: broken ones fail the
        // document as a parse of the whole would have. (Those of cold subtrees wait until drawn.)
        if let error = json.syntaxErrorsFoundLater.min(by: { $0.offset < $1.offset }) {
            return invalidJSON(error, in: source)
        }
        let diagnostics = decoder.diagnostics.enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        return Loaded(value: document, diagnostics: diagnostics, source: source)
    }

    private static func invalidJSON(_ error: JSONSyntaxError, in source: SourceText) -> Loaded<ScreenDocument> {
        let diagnostic = Diagnostic(offset: error.offset, path: "$", message: "invalid JSON: " + error.message)
        return Loaded(value: nil, diagnostics: [diagnostic], source: source)
    }

    /// Reads one node (a component a script built, say) with the same checks as a document's.
    /// The node is `nil` only when the text is not JSON; broken parts become `.invalid`.
    public static func loadNode(_ source: SourceText, theme: NamedStyles = NamedStyles()) -> (node: Node?, diagnostics: [Diagnostic]) {
        let json: SourceJSON
        do {
            json = try JSONParser.parse(source.bytes)
        } catch {
            return (nil, [Diagnostic(offset: error.offset, path: "$", message: "invalid JSON: " + error.message)])
        }
        var decoder = DocumentDecoder(theme: theme)
        let node = decoder.node(json)
        return (node, decoder.diagnostics)
    }

    /// Reads a screen document from a file; a file that cannot be read is reported like a
    /// broken document.
    public static func load(contentsOf path: String, displayName: String? = nil, theme: NamedStyles = NamedStyles(),
                            decoding: Decoding = .asDrawn) -> Loaded<ScreenDocument> {
        let name = displayName ?? path
        do {
            return load(SourceText(name: name, bytes: try FileBytes.contents(of: path)), theme: theme, decoding: decoding)
        } catch {
            let diagnostic = Diagnostic(offset: 0, path: "$", message: "cannot read the file: " + error.reason)
            return Loaded(value: nil, diagnostics: [diagnostic], source: SourceText(name: name, bytes: []))
        }
    }
}
