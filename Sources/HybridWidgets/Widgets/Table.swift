import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `table`: a header, a rule and `rows` in `columns`; arrows move a highlighted row (scrolled
/// into sight) and Enter runs `onSelect` with `index` and `row` in scope.
struct Table: Widget {
    static let typeName = "table"
    static let fields = ["columns", "rows", "onSelect"]
    /// Columns between table columns.
    static let gap = 2
    let columns: [Column]
    let rows: PropertyValue?
    let onSelect: Action?

    /// A column: a title string or `{title, width?, align?}`.
    struct Column: Sendable {
        /// The header.
        var title: String
        /// The width; `nil` sizes the column to its content.
        var width: Dimension?
        /// Alignment of the cells.
        var align: TextAlignment
    }

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Table? {
        guard let columns = decoder.required(json, "columns", type: typeName, { $0.columns($1) }) else { return nil }
        return Table(columns: columns, rows: decoder.optional(json, "rows") { $0.arrayProperty($1) },
                     onSelect: decoder.optional(json, "onSelect") { $0.action($1) })
    }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        let rowValues = resolver.array(rows, in: place.scope, node: place.node, field: "rows") ?? []
        let cells = rowValues.map { row in (row.arrayValue ?? [row]).map(Resolver.display) }
        let table = place.view(Content(columns: columns, rows: cells))
        table.selected = RowSelection.clamp(table.selected, count: cells.count)
        return table
    }

    func isFocusable(_ view: View) -> Bool { onSelect != nil || view.layoutStyle.height != nil }

    func focus(_ view: View, interaction: inout Interaction) {
        RowSelection.focus(view, interaction: &interaction)
    }

    func handleKey(_ key: String, on view: View, host: any WidgetHost) -> Bool {
        guard let content = view.content as? Content else { return false }
        return RowSelection.handle(key, on: view, count: content.rows.count, host: host) { index in
            guard let onSelect else { return }
            let row = JSONValue.array(content.rows[index].map(JSONValue.string))
            // The row's action sees `index` and `row`, as a list item's sees `item`.
            let scope = view.scope.adding("index", .integer(index)).adding("row", row)
            host.run(onSelect, for: view, scope: scope, event: view.event(value: row, extra: [("index", .integer(index)), ("row", row)]))
        }
    }

    func keyHelp(for view: View) -> [KeyHint] {
        RowSelection.keyHelp(count: (view.content as? Content)?.rows.count ?? 0, onSelect: onSelect)
    }

    struct Content: ViewContent {
        let columns: [Column]
        let rows: [[String]]

        func size(of view: View, maxWidth: Int) -> Size {
            let widths = columnWidths(available: maxWidth)
            return Size(width: widths.reduce(0, +) + Table.gap * max(0, widths.count - 1), height: rows.count + 2)
        }

        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            let (inner, clip, style) = (area.inner, area.clip, view.cellStyle)
            let selected = view.isFocused ? view.selected : nil
            let widths = columnWidths(available: inner.width)
            func drawRow(_ cells: [String], y: Int, style: CellStyle) {
                var x = inner.x
                for (index, column) in columns.enumerated() {
                    let text = index < cells.count ? cells[index] : ""
                    if x >= clip.maxX { return }
                    Painter.writeAligned(text, width: widths[index], alignment: column.align, style: style,
                                         x: x, y: y, into: &buffer, clip: clip)
                    x += widths[index] + Table.gap
                }
            }
            drawRow(columns.map(\.title), y: inner.y, style: style.patched(with: CellStyle(attributes: .bold)))
            let ruleWidth = min(inner.width, widths.reduce(0, +) + Table.gap * max(0, widths.count - 1))
            Painter.rule("─", x: inner.x, y: inner.y + 1, width: ruleWidth, style: Painter.dimmed(style), into: &buffer, clip: clip)
            // Rows scroll so the selected one is visible.
            let visibleRows = max(1, inner.height - 2)
            let first = selected.map { max(0, $0 - visibleRows + 1) } ?? 0
            for (index, row) in rows.enumerated().dropFirst(first) {
                let y = inner.y + 2 + index - first
                if y >= clip.maxY { break }
                drawRow(row, y: y, style: style)
                // The whole row, the gaps between its columns included, shows the selection.
                if index == selected {
                    buffer.applyStyle(CellStyle(attributes: .reverse), to: Rect(x: inner.x, y: y, width: ruleWidth, height: 1).intersection(clip))
                }
            }
        }

        /// Column widths: fixed and percentage columns first, then content-sized ones, then
        /// `fill` columns share what is left.
        func columnWidths(available: Int) -> [Int] {
            let gaps = Table.gap * max(0, columns.count - 1)
            var widths = [Int](repeating: 0, count: columns.count)
            var fills: [Int] = []
            for (index, column) in columns.enumerated() {
                switch column.width {
                case .cells(let cells)?: widths[index] = cells
                case .percent(let percent)?: widths[index] = Int(Double(max(0, available - gaps)) * percent / 100)
                case .fill?: fills.append(index)
                case .auto?, nil:
                    let cellWidth = rows.reduce(0) { index < $1.count ? max($0, DisplayWidth.of($1[index])) : $0 }
                    widths[index] = max(DisplayWidth.of(column.title), cellWidth)
                }
            }
            if !fills.isEmpty {
                let free = max(0, available - gaps - widths.reduce(0, +))
                for (order, index) in fills.enumerated() {
                    widths[index] = free / fills.count + (order < free % fills.count ? 1 : 0)
                }
            }
            return widths
        }
    }
}

extension DocumentDecoder {
    /// A table's `columns`: title strings or `{title, width?, align?}`.
    fileprivate mutating func columns(_ json: SourceJSON) -> [Table.Column]? {
        guard let items = json.items else {
            report("expected an array of columns, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        if items.isEmpty { report("a table needs at least one column", at: json.offset) }
        var columns: [Table.Column] = []
        for (index, item) in items.enumerated() {
            atIndex(index) { decoder in
                switch item.kind {
                case .string:
                    columns.append(Table.Column(title: item.stringValue!, width: nil, align: .left))
                case .object:
                    decoder.checkFields(item.members!, allowed: ["title", "width", "align"], owner: "a column")
                    guard let title = decoder.requiredString(item, "title") else { return }
                    var column = Table.Column(title: title, width: nil, align: .left)
                    if let width = item["width"] {
                        do throws(NodeStyle.Mismatch) {
                            column.width = try NodeStyle.dimension(width.plain)
                        } catch {
                            decoder.inKey("width") { $0.report(error.message, at: width.offset) }
                        }
                    }
                    if let align = item["align"] {
                        do throws(NodeStyle.Mismatch) {
                            column.align = try NodeStyle.keyword(align.plain)
                        } catch {
                            decoder.inKey("align") { $0.report(error.message, at: align.offset) }
                        }
                    }
                    columns.append(column)
                default:
                    decoder.report("expected a column: a title string or {\"title\", \"width\", \"align\"}, got \(item.kindDescription)", at: item.offset)
                }
            }
        }
        return columns
    }
}
