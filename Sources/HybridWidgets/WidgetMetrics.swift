import HybridCells
import HybridDocument
import HybridLayout

/// The natural content size of each kind of leaf view.
enum WidgetMetrics {
    /// Columns between table columns.
    static let tableGap = 2
    /// Width an input takes when nothing sizes it.
    static let inputWidth = 20

    /// The content height when it is the same at every width: one line for text that does
    /// not wrap and holds no newline. Other widgets are cheap to measure, so they are.
    static func fixedHeight(of view: View) -> Int? {
        guard case .text(let runs) = view.content, view.wrap == .none, !TextLayout.hasLineBreak(runs) else { return nil }
        return 1
    }

    static func contentSize(of view: View, maxWidth: Int) -> Size {
        switch view.content {
        case .container, .tabs, .spacer:
            return .zero
        case .text:
            let lines = view.lines(width: maxWidth)
            return Size(width: lines.reduce(0) { max($0, $1.width) }, height: lines.count)
        case .button(let label):
            return Size(width: DisplayWidth.of(label) + 4, height: 1)
        case .input(let text, let placeholder, _):
            return Size(width: max(inputWidth, max(DisplayWidth.of(text), DisplayWidth.of(placeholder)) + 3), height: 1)
        case .checkbox(let label, _):
            return Size(width: 4 + DisplayWidth.of(label), height: 1)
        case .select(let options, _):
            return Size(width: options.reduce(0) { max($0, DisplayWidth.of($1)) } + 4, height: 1)
        case .table(let columns, let rows):
            let widths = TableGeometry.columnWidths(columns: columns, rows: rows, available: maxWidth)
            return Size(width: widths.reduce(0, +) + tableGap * max(0, widths.count - 1), height: rows.count + 2)
        case .progress(_, let label):
            return Size(width: (label.map { DisplayWidth.of($0) + 1 } ?? 0) + 25, height: 1)
        case .spinner(let label):
            return Size(width: label.map { DisplayWidth.of($0) + 2 } ?? 1, height: 1)
        case .divider:
            return Size(width: 1, height: 1)
        case .error(let message):
            let width = DisplayWidth.of(message) + 4
            return Size(width: min(width, max(maxWidth, 1)), height: 1)
        }
    }
}

/// Column widths of a table: fixed and percentage columns first, then content-sized ones,
/// then `fill` columns share what is left.
enum TableGeometry {
    static func columnWidths(columns: [TableColumn], rows: [[String]], available: Int) -> [Int] {
        let gaps = WidgetMetrics.tableGap * max(0, columns.count - 1)
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
