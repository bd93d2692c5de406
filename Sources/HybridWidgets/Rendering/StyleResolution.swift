import HybridCells
import HybridDocument
import HybridLayout

extension Color {
    /// The terminal colour for a document colour.
    init(_ value: ColorValue) {
        switch value {
        case .ansi(let index): self = .ansi(UInt8(index))
        case .indexed(let index): self = .indexed(UInt8(index))
        case .rgb(let red, let green, let blue): self = .rgb(red, green, blue)
        }
    }
}

extension TextStyle {
    /// These colours and attributes patched over the inherited ones.
    func cellStyle(inheriting parent: CellStyle) -> CellStyle {
        var style = parent
        if let color { style.foreground = Color(color) }
        if let background { style.background = Color(background) }
        func toggle(_ flag: Bool?, _ attribute: TextAttributes) {
            guard let flag else { return }
            if flag { style.attributes.insert(attribute) } else { style.attributes.remove(attribute) }
        }
        toggle(bold, .bold)
        toggle(italic, .italic)
        toggle(underline, .underline)
        toggle(dim, .dim)
        toggle(reverse, .reverse)
        return style
    }
}

extension NodeStyle {
    /// This style's colours and attributes patched over the inherited ones.
    func cellStyle(inheriting parent: CellStyle) -> CellStyle {
        textStyle.cellStyle(inheriting: parent)
    }

    /// The sizing fields, for the layout engine.
    func layoutStyle(arrangement: Arrangement, border: BorderKind) -> LayoutStyle {
        var layout = LayoutStyle()
        layout.arrangement = arrangement
        layout.width = width
        layout.height = height
        layout.minWidth = minWidth
        layout.maxWidth = maxWidth
        layout.minHeight = minHeight
        layout.maxHeight = maxHeight
        layout.flex = flex
        layout.padding = padding ?? .zero
        layout.margin = margin ?? .zero
        layout.gap = gap ?? 0
        layout.align = align ?? .stretch
        layout.justify = justify ?? .start
        if border != .none { layout.border = Edges(top: 1, right: 1, bottom: 1, left: 1) }
        return layout
    }
}
