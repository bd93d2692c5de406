#if canImport(Glibc)
import Glibc
#endif
import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `text`: a string, or spans of differently styled strings, wrapped and aligned by the style.
struct Text: Widget {
    static let typeName = "text"
    static let fields = ["text", "spans"]
    static let isStaticWhenUnbound = true
    let text: PropertyValue?
    let spans: [Span]

    /// A run of text with its own style inside a `text` node.
    struct Span: Sendable {
        /// The text, possibly bound.
        var text: PropertyValue
        /// The span's colours and attributes.
        var style: TextStyle
    }

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Text? {
        let (textJSON, spansJSON) = (json["text"], json["spans"])
        guard textJSON != nil || spansJSON != nil else {
            decoder.report("a \"text\" node needs \"text\" or \"spans\"", at: json.offset)
            return nil
        }
        let text = textJSON.flatMap { value in
            decoder.inKey("text") { $0.property(value, expecting: "a string, number or boolean") { [.string, .integer, .number, .bool].contains($0) } }
        }
        let spans = spansJSON.flatMap { value in decoder.inKey("spans") { $0.spans(value) } } ?? []
        return Text(text: text, spans: spans)
    }

    var isStatic: Bool { areConstant(text) && spans.allSatisfy(\.text.isConstant) }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        var runs: [TextRun] = []
        runs.reserveCapacity(spans.count + 1)
        if let text = resolver.string(text, in: place.scope) { runs.append(TextRun(text: text, style: place.cellStyle)) }
        // By index, not `for span in spans`: copying each span out of the array costs more
        // than resolving it.
        for index in spans.indices {
            // A literal (most spans) read in place, without copying the span's value out.
            let text = spans[index].text.literalString ?? resolver.string(spans[index].text, in: place.scope) ?? ""
            runs.append(TextRun(text: text, style: spans[index].style.cellStyle(inheriting: place.cellStyle)))
        }
        return place.view(Content(runs: runs))
    }

    /// The runs, broken into lines for the width they are drawn at. Measuring counts the lines
    /// and keeps the first `keptLines`; painting breaks again only a text that has more, and
    /// only as far as the rows on screen: a long text costs memory and painting in proportion
    /// to what shows.
    final class Content: ViewContent {
        let runs: [TextRun]
        /// The lines for the last width measured (painting asks for the same one).
        private var wrapped: (width: Int, text: WrappedText)?
        /// Whether a run holds a newline, looked for once.
        private lazy var hasLineBreak = TextLayout.hasLineBreak(runs)
        /// How many lines measuring keeps for painting.
        static let keptLines = 256

        init(runs: [TextRun]) {
            self.runs = runs
        }

        private func measured(width: Int, wrap: WrapMode) -> WrappedText {
            if let wrapped, wrapped.width == width { return wrapped.text }
            let text = TextLayout.layout(runs, width: width, wrap: wrap, hasLineBreak: hasLineBreak, keep: Self.keptLines)
            wrapped = (width, text)
            return text
        }

        /// The first `rows` lines at `width`.
        private func lines(width: Int, wrap: WrapMode, rows: Int) -> [TextLine] {
            let measured = measured(width: width, wrap: wrap)
            if measured.isWhole || rows <= measured.lines.count { return measured.lines }
            return TextLayout.layout(runs, width: width, wrap: wrap, hasLineBreak: hasLineBreak, keep: rows, countingAll: false).lines
        }

        /// One line for text that does not wrap and holds no newline.
        func fixedHeight(of view: View) -> Int? {
            view.wrap == .none && !hasLineBreak ? 1 : nil
        }

        func size(of view: View, maxWidth: Int) -> Size {
            let text = measured(width: maxWidth, wrap: view.wrap)
            return Size(width: text.widest, height: text.count)
        }

        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            let inner = area.inner
            // One line drawn from its left edge: no widths to measure first (the common log
            // or list line; painting measures each glyph as it writes it).
            if view.wrap == .none, view.textAlign == .left, !hasLineBreak {
                if inner.y < area.clip.maxY { Painter.write(runs, x: inner.x, y: inner.y, into: &buffer, clip: area.clip) }
                return
            }
            for (row, line) in lines(width: inner.width, wrap: view.wrap, rows: max(0, area.clip.maxY - inner.y)).enumerated() {
                let y = inner.y + row
                if y >= area.clip.maxY { break }
                let free = inner.width - line.width
                let x: Int
                switch view.textAlign {
                case .left: x = inner.x
                case .center: x = inner.x + max(0, free / 2)
                case .right: x = inner.x + max(0, free)
                }
                Painter.write(line.runs, x: x, y: y, into: &buffer, clip: area.clip)
            }
        }
    }
}

extension DocumentDecoder {
    /// The `spans` of a text node.
    fileprivate mutating func spans(_ json: SourceJSON) -> [Text.Span]? {
        guard let items = json.items else {
            report("expected an array of spans, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        var spans: [Text.Span] = []
        spans.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            if let span = knownSpan(item) {
                spans.append(span)
                continue
            }
            atIndex(index) { decoder in
                guard let members = item.members else {
                    decoder.report("expected a span object {\"text\", \"style\"}, got \(item.kindDescription)", at: item.offset)
                    return
                }
                decoder.checkFields(members, allowed: ["text", "style"], owner: "a span")
                guard let text = decoder.required(item, "text", type: "span", { $0.textProperty($1) }) else { return }
                guard let styleJSON = item["style"] else {
                    spans.append(Text.Span(text: text, style: TextStyle()))
                    return
                }
                spans.append(Text.Span(text: text, style: decoder.spanStyle(styleJSON, in: item)))
            }
        }
        return spans
    }

    /// The span `item` when it is of the common kind that cannot hold a problem: `text` a
    /// string without bindings, and no `style` or one decoded before without a problem; `nil`
    /// sends it down the checking path, which decodes it the same way and reports what is
    /// wrong. A long text is thousands of such spans: one walk over the members replaces the
    /// field check and two lookups, and no path is pushed for them.
    private func knownSpan(_ item: SourceJSON) -> Text.Span? {
        guard let (text, styleJSON) = item.values(ofOnly: "text", "style"), let text, text.kind == .string,
              text.withStringUTF8({ $0.isEmpty || memchr($0.baseAddress!, Int32(UInt8(ascii: "@")), $0.count) == nil }) == true else { return nil }
        var style = TextStyle()
        if let styleJSON {
            guard let known = spanStyles.style(for: styleJSON) else { return nil }
            style = known
        }
        return Text.Span(text: .constant(.string(text.stringValue!)), style: style)
    }

    /// The style of the span `item`, decoded once for each distinct text.
    private mutating func spanStyle(_ json: SourceJSON, in item: SourceJSON) -> TextStyle {
        if let known = spanStyles.style(for: json) { return known }
        let problemsBefore = diagnostics.count
        var style = NodeStyle()
        var bound: [(field: String, value: PropertyValue)] = []
        inKey("style") { $0.style(json, into: &style, bound: &bound) }
        if !bound.isEmpty {
            report("span styles cannot be bound to expressions; bind the text node's style", at: item.offset)
        }
        // A style with problems is decoded again wherever it appears, so each is reported.
        if diagnostics.count == problemsBefore { spanStyles.insert(style.textStyle, for: json) }
        return style.textStyle
    }
}
