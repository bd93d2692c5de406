#if canImport(Glibc)
import Glibc
#endif
import HybridDocument
import HybridJSON
import Synchronization

/// The child nodes of a container node: decoded with it, or, for a cold subtree (large, and
/// binding nothing: see `ColdSubtree`), decoded when first asked for, which is when the
/// renderer first draws it. A long static screen then costs what its first frame shows. The
/// problems of a deferred subtree are found then, still located, and reported with that frame;
/// `ScreenDocument.Decoding.whole` finds them all at once (`hybrid validate`, `hybrid render`).
public struct NodeList: Sendable {
    private enum Storage: Sendable {
        case decoded([Node])
        case deferred(DeferredNodes)
    }

    private let storage: Storage

    /// Nodes already decoded.
    init(_ nodes: [Node]) {
        storage = .decoded(nodes)
    }

    /// A cold subtree, decoded when first asked for with the styles and path `decoder` has now.
    /// - Parameters:
    ///   - json: An array of nodes, or one node (a box's `child`) when `single` is true.
    init(deferring json: SourceJSON, single: Bool, decoder: DocumentDecoder) {
        storage = .deferred(DeferredNodes(json: json, single: single, path: decoder.path, styles: decoder.styles))
    }

    /// The nodes, decoded now if they were deferred.
    public var nodes: [Node] {
        switch storage {
        case .decoded(let nodes): return nodes
        case .deferred(let deferred): return deferred.nodes
        }
    }

    /// The node at `index`, or nil past the last: a deferred list decodes its nodes up to it,
    /// so a column drawn down to the bottom of the screen decodes the lines that show.
    func node(at index: Int) -> Node? {
        switch storage {
        case .decoded(let nodes): return index < nodes.count ? nodes[index] : nil
        case .deferred(let deferred): return deferred.node(at: index)
        }
    }

    /// The nodes when they are decoded already, so a walk that only counts need not decode.
    var decodedNodes: [Node]? {
        switch storage {
        case .decoded(let nodes): return nodes
        case .deferred(let deferred): return deferred.nodesIfDecoded
        }
    }

    /// Whether the nodes and everything under them bind nothing (a cold subtree is static by
    /// what `ColdSubtree` let through).
    var isStatic: Bool {
        switch storage {
        case .decoded(let nodes): return nodes.allSatisfy(\.isStatic)
        case .deferred: return true
        }
    }

    /// The problems the deferred decoding found, handed out once, for the frame that first
    /// drew the nodes to report.
    func takeProblems() -> [Diagnostic] {
        switch storage {
        case .decoded: return []
        case .deferred(let deferred): return deferred.takeProblems()
        }
    }
}

/// A cold subtree kept as JSON until first needed, then read and decoded node by node as far
/// as it is asked for, each node once: a node list the parser skimmed past is parsed item by
/// item too (`ArrayReader`), so a column drawn down to the bottom of the screen parses the
/// lines that show.
final class DeferredNodes: Sendable {
    private let json: SourceJSON
    private let single: Bool
    private let path: JSONPath
    private let styles: NamedStyles
    /// What is decoded so far. Documents are Sendable, so decoding is under a lock, though
    /// frames are drawn on one thread.
    private let decoded = Mutex(Decoded())

    private struct Decoded {
        /// The items of the list as far as read, once first asked for (unused when single).
        var items: ArrayReader?
        /// The nodes of the first items.
        var nodes: [Node] = []
        /// Whether every node is decoded: the list ended, or a syntax error in it (an invalid
        /// node, last) stopped the reading.
        var isComplete = false
        /// The problems found and not yet handed out.
        var problems: [Diagnostic] = []
        /// The decoder, kept for the next lines asked for: a column drawn down to the bottom
        /// of the screen asks for its lines one by one, and each would otherwise make one and
        /// decode the same few span styles again. What else it keeps between calls (ids,
        /// component uses, reloads) stays empty: `ColdSubtree` lets none of them through.
        var decoder: DocumentDecoder?
    }

    init(json: SourceJSON, single: Bool, path: JSONPath, styles: NamedStyles) {
        self.json = json
        self.single = single
        self.path = path
        self.styles = styles
    }

    var nodes: [Node] {
        decoded.withLock { decoded in
            decode(upTo: Int.max, in: &decoded)
            return decoded.nodes
        }
    }

    func node(at index: Int) -> Node? {
        decoded.withLock { decoded in
            decode(upTo: index, in: &decoded)
            return index < decoded.nodes.count ? decoded.nodes[index] : nil
        }
    }

    /// The nodes when all are decoded already.
    var nodesIfDecoded: [Node]? {
        decoded.withLock { $0.isComplete ? $0.nodes : nil }
    }

    func takeProblems() -> [Diagnostic] {
        decoded.withLock { decoded in
            defer { decoded.problems = [] }
            return decoded.problems
        }
    }

    /// Decodes the nodes up to `index` (all when past the last).
    private func decode(upTo index: Int, in decoded: inout Decoded) {
        guard !decoded.isComplete, decoded.nodes.count <= index else { return }
        // Moved out and back, not shared, so the decoder adds to its styles without copying them.
        var decoder = decoded.decoder.take() ?? {
            var decoder = DocumentDecoder(theme: styles)
            decoder.path = path
            // Whatever lies inside passed `ColdSubtree` already and may be deferred again
            // without looking, if large (a box's column of lines inside a cold box).
            decoder.childDecoding = .whenLarge
            return decoder
        }()
        defer { decoded.decoder = decoder }
        var syntaxProblem: Diagnostic?
        while !decoded.isComplete, decoded.nodes.count <= index {
            let at = decoded.nodes.count
            if single {
                decoded.nodes.append(decoder.node(json))
                decoded.isComplete = true
                continue
            }
            if decoded.items == nil { decoded.items = ArrayReader(json) }
            if let item = decoded.items?.item(at: at) {
                decoded.nodes.append(decoder.atIndex(at) { $0.node(item) })
                continue
            }
            decoded.isComplete = true
            if let error = decoded.items?.syntaxError {
                // A node list the parser skimmed past, and broken: found now, as it is
                // drawn, where it breaks.
                decoded.nodes.append(.invalid("invalid JSON", offset: error.offset))
                syntaxProblem = Diagnostic(offset: error.offset, path: path.description, message: "invalid JSON: " + error.message)
            }
        }
        decoded.problems += decoder.diagnostics
        decoder.diagnostics = []
        // After the problems of the items before it, in the order of the text.
        if let syntaxProblem { decoded.problems.append(syntaxProblem) }
    }
}

/// Which parts of a document may be decoded when first drawn: large subtrees that bind
/// nothing, so that they resolve the same on every frame whenever they are decoded, and that
/// hold nothing the whole screen must know as it opens.
enum ColdSubtree {
    /// How many values (`SourceJSON.valueCount`) a subtree must hold to be deferred: below
    /// this, decoding it costs little more than looking at it.
    private static let minimumValues = 512

    /// Whether `json` (an array of nodes, or one node) is a cold subtree:
    /// - at least `minimumValues` values, or a node list the parser skimmed past (4 KiB or
    ///   more, `JSONParser.parse(_:deferringNodeLists:)`);
    /// - no `@{` anywhere in its text, so nothing in it is bound to state, props or items
    ///   (nor a `\u` escape, which could spell one);
    /// - no `id` or `autofocus` field, which scripts, focus and the duplicate-id check need
    ///   from the start;
    /// - only node types that are static when nothing in them is bound
    ///   (`Widget.isStaticWhenUnbound`): no buttons, inputs, lists or components.
    ///
    /// Looked for in the source text in one pass (`ByteMarks`), not by walking the values: a
    /// look costs a small part of the parse it follows. A name found where it is no field
    /// (`"id"` as a text) only keeps the subtree from being deferred.
    static func holds(_ json: SourceJSON) -> Bool {
        guard isLarge(json) else { return false }
        return json.source.withUnsafeBytes { text in
            var from = 0
            while let at = marks.first(in: text, from: from) {
                from = at + 1
                func startsWith(_ word: StaticString) -> Bool {
                    at + word.utf8CodeUnitCount <= text.count && memcmp(text.baseAddress! + at, word.utf8Start, word.utf8CodeUnitCount) == 0
                }
                // Which word it may be, by its first two bytes (as `marks` found it): every
                // node has a `"type"`, so that one comes up hundreds of times a list.
                switch (text[at], at + 1 < text.count ? text[at + 1] : 0) {
                case (UInt8(ascii: "\""), UInt8(ascii: "t")):
                    if startsWith("\"type\""), !namesStaticType(in: text, after: at + 6) { return false }
                case (UInt8(ascii: "\""), UInt8(ascii: "i")):
                    if startsWith("\"id\"") { return false }
                case (UInt8(ascii: "\""), UInt8(ascii: "a")):
                    if startsWith("\"autofocus\"") { return false }
                case (UInt8(ascii: "@"), UInt8(ascii: "{")), (UInt8(ascii: "\\"), UInt8(ascii: "u")):
                    return false
                default:
                    break
                }
            }
            return true
        }
    }

    /// Where the words `holds` looks for may start: `@{`, `\u`, and the names `"id"`,
    /// `"autofocus"` and `"type"`.
    private static let marks = ByteMarks(singles: [UInt8(ascii: "@"), UInt8(ascii: "\\")],
                                         triples: [(UInt8(ascii: "\""), UInt8(ascii: "i"), UInt8(ascii: "d")),
                                                   (UInt8(ascii: "\""), UInt8(ascii: "a"), UInt8(ascii: "u")),
                                                   (UInt8(ascii: "\""), UInt8(ascii: "t"), UInt8(ascii: "y"))])

    /// Whether `json` holds `minimumValues` values or more, or is a node list the parser
    /// skimmed past (which is at least `JSONParser.minimumDeferredBytes` long).
    static func isLarge(_ json: SourceJSON) -> Bool {
        json.isUnparsed || json.valueCount >= minimumValues
    }

    /// Whether what follows `"type"` (ending just before `position`) is no field (a value,
    /// followed by no colon) or a field naming a type `Widget.isStaticWhenUnbound`.
    private static func namesStaticType(in text: UnsafeRawBufferPointer, after position: Int) -> Bool {
        var index = position
        func skipSpaces() {
            while index < text.count, text[index] == 0x20 || text[index] == 0x0A || text[index] == 0x0D || text[index] == 0x09 { index += 1 }
        }
        skipSpaces()
        guard index < text.count, text[index] == UInt8(ascii: ":") else { return true }
        index += 1
        skipSpaces()
        guard index < text.count, text[index] == UInt8(ascii: "\"") else { return false }
        let start = index + 1
        // A name with an escape is no name of a static type as written.
        var end = start
        while end < text.count, text[end] != UInt8(ascii: "\""), text[end] != UInt8(ascii: "\\") { end += 1 }
        guard end < text.count, text[end] == UInt8(ascii: "\"") else { return false }
        let name = text.baseAddress! + start
        for known in staticTypeNames where known.count == end - start {
            if known.withUnsafeBytes({ memcmp($0.baseAddress!, name, known.count) }) == 0 { return true }
        }
        return false
    }

    /// `WidgetCatalog.staticWhenUnbound` as bytes, compared without making strings: `text`,
    /// the type of most nodes, first, then by name (a `Set`'s order changes by process).
    private static let staticTypeNames = WidgetCatalog.staticWhenUnbound
        .sorted { ($0 != Text.typeName ? 1 : 0, $0) < ($1 != Text.typeName ? 1 : 0, $1) }
        .map { Array($0.utf8) }
}
