import HybridCells

/// A small flexbox: fixed, percent, `auto`, `fill` and `flex` sizes with min/max limits,
/// padding, margin, gap, `align` on the cross axis and `justify` on the main axis.
///
/// Items that do not fit are not shrunk: they are placed past the end and clipped when drawn,
/// which keeps the layout predictable in a fixed-size terminal.
public enum LayoutEngine {
    /// The height measured against where nothing bounds it (inside a scroll, a column's
    /// content). Large enough that no real content reaches it, small enough that thousands of
    /// such heights still add up without overflow.
    static let unboundedHeight = 1 << 40

    /// Sizes and places `root` and everything under it to fill `area`. Only what lies in
    /// `area` is placed whole: the children of an item out of sight are left unplaced where
    /// the item allows it (`LayoutItem.placesChildrenOutOfSight`), so a long screen costs what
    /// shows, and are placed when a later layout brings the item into sight.
    public static func layout(_ root: any LayoutItem, in area: Rect) {
        let margin = root.layoutStyle.margin
        let size = measure(root, available: Size(width: area.width - margin.horizontal, height: area.height - margin.vertical), stretch: true)
        let frame = Rect(x: area.x + margin.left, y: area.y + margin.top,
                         width: size.width, height: size.height)
        place(root, in: frame, sight: area)
    }

    // MARK: Measuring

    /// The border-box size an item wants within `available`; `stretch` gives auto sizes the
    /// whole available room (as for the root, or `align: stretch`).
    /// Percentages resolve against `basis` (the parent's inner size), which is larger than
    /// `available` when siblings already took part of the room.
    static func measure(_ item: any LayoutItem, available: Size, basis: Size? = nil, stretch: Bool = false) -> Size {
        let style = item.layoutStyle
        let insets = style.insets
        let basis = basis ?? available
        var width = resolve(style.width, of: basis.width)
        if width == nil && stretch { width = available.width }
        var content: Size?
        if width == nil {
            let measured = contentSize(item, maxWidth: max(0, available.width - insets.horizontal))
            content = measured
            width = min(measured.width + insets.horizontal, max(available.width, 0))
        }
        let finalWidth = clamp(width!, min: style.minWidth, max: style.maxWidth, of: basis.width)
        var height = resolve(style.height, of: basis.height)
        if height == nil && stretch && item.layoutStyle.arrangement != .leaf {
            height = available.height
        }
        if height == nil {
            if content == nil || finalWidth != width {
                content = contentSize(item, maxWidth: max(0, finalWidth - insets.horizontal))
            }
            height = content!.height + insets.vertical
        }
        let finalHeight = clamp(height!, min: style.minHeight, max: style.maxHeight, of: basis.height)
        return Size(width: max(0, finalWidth), height: max(0, finalHeight))
    }

    static func resolve(_ dimension: Dimension?, of available: Int) -> Int? {
        switch dimension {
        case .cells(let cells): return cells
        case .percent(let percent): return Int((Double(max(available, 0)) * percent / 100).rounded(.down))
        case .fill: return max(available, 0)
        case .auto, nil: return nil
        }
    }

    static func clamp(_ value: Int, min lower: Dimension?, max upper: Dimension?, of available: Int) -> Int {
        var result = value
        if let upper = resolve(upper, of: available) { result = Swift.min(result, upper) }
        if let lower = resolve(lower, of: available) { result = Swift.max(result, lower) }
        return result
    }

    /// The content size (inside padding and border) of an item when `maxWidth` columns are free.
    static func contentSize(_ item: any LayoutItem, maxWidth: Int) -> Size {
        let style = item.layoutStyle
        let children = item.layoutChildren
        let unbounded = Size(width: maxWidth, height: unboundedHeight)
        switch style.arrangement {
        case .leaf:
            return item.contentSize(maxWidth: maxWidth)
        case .vertical, .scrolling:
            var width = 0
            var height = 0
            for child in children {
                let margin = child.layoutStyle.margin
                let size = measureForContent(child, available: Size(width: maxWidth - margin.horizontal, height: unbounded.height), axis: .vertical)
                width = max(width, size.width + margin.horizontal)
                height += size.height + margin.vertical
            }
            return Size(width: width, height: height + style.gap * max(0, children.count - 1))
        case .horizontal:
            var width = 0
            var height = 0
            for child in children {
                let margin = child.layoutStyle.margin
                let size = measureForContent(child, available: Size(width: max(0, maxWidth - width) - margin.horizontal, height: unbounded.height), axis: .horizontal)
                width += size.width + margin.horizontal
                height = max(height, size.height + margin.vertical)
            }
            return Size(width: width + style.gap * max(0, children.count - 1), height: height)
        case .overlay:
            var size = Size.zero
            for child in children {
                let margin = child.layoutStyle.margin
                let childSize = measureForContent(child, available: Size(width: maxWidth - margin.horizontal, height: unbounded.height), axis: .overlay)
                size.width = max(size.width, childSize.width + margin.horizontal)
                size.height = max(size.height, childSize.height + margin.vertical)
            }
            return size
        }
    }

    /// `contentSize(item, maxWidth:).height`, without measuring the widths of children whose
    /// height does not depend on them.
    /// - Parameter enough: A height past which the exact one does not matter: a column stops
    ///   adding up its children there, and those below are not asked for. The height is exact
    ///   below `enough`, else at least `enough`.
    static func contentHeight(_ item: any LayoutItem, maxWidth: Int, enough: Int = .max) -> Int {
        let style = item.layoutStyle
        switch style.arrangement {
        case .leaf:
            return item.fixedContentHeight ?? item.contentSize(maxWidth: maxWidth).height
        case .vertical, .scrolling:
            // A scroll view's height decides its marks and whether it takes focus.
            var enough = style.arrangement == .vertical ? enough : .max
            var height = 0
            var index = 0
            while let child = item.layoutChild(at: index, resolving: true) {
                let childStyle = child.layoutStyle
                let margin = childStyle.margin
                height += (index > 0 ? style.gap : 0) + margin.vertical
                height += heightForContent(child, available: Size(width: maxWidth - margin.horizontal, height: unboundedHeight))
                index += 1
                // A child sized by the column's height would be sized by the part added up.
                if childStyle.followsParentHeight { enough = .max }
                if height >= enough { break }
            }
            return height
        case .horizontal, .overlay:
            return contentSize(item, maxWidth: maxWidth).height
        }
    }

    /// `measureForContent(child, available:, axis: .vertical).height`, taken without measuring
    /// the width when the child is a leaf of fixed content height.
    private static func heightForContent(_ child: any LayoutItem, available: Size) -> Int {
        let style = child.layoutStyle
        guard style.arrangement == .leaf, let fixed = child.fixedContentHeight else {
            return measureForContent(child, available: available, axis: .vertical).height
        }
        // What `measure` and `measureForContent` give when the content height is `fixed`.
        let content = fixed + style.insets.vertical
        if style.height == .fill || style.height.isPercent { return content }
        let height = resolve(style.height, of: available.height) ?? content
        return max(0, clamp(height, min: style.minHeight, max: style.maxHeight, of: available.height))
    }

    /// Measures a child while its parent works out its own content size: growing children
    /// count with their content, since the room they grow into is not known yet.
    private static func measureForContent(_ child: any LayoutItem, available: Size, axis: Arrangement) -> Size {
        var size = measure(child, available: Size(width: max(0, available.width), height: available.height))
        let style = child.layoutStyle
        if style.height == .fill || style.height.isPercent {
            size.height = contentHeight(child, maxWidth: max(0, size.width - style.insets.horizontal)) + style.insets.vertical
        }
        if axis == .horizontal, style.growth(along: .horizontal) != nil || style.width.isPercent {
            size.width = min(size.width, contentSize(child, maxWidth: max(0, available.width - style.insets.horizontal)).width + style.insets.horizontal)
        }
        return size
    }

    // MARK: Placing

    /// Sets `item.frame` and places its children inside, if it lies in `sight` (the part of
    /// the screen its parents show) or must place them anyway.
    static func place(_ item: any LayoutItem, in frame: Rect, sight: Rect) {
        if item.keepsPlacement(in: frame, sight: sight) { return }
        item.frame = frame
        let sight = sight.intersection(frame)
        if sight.isEmpty && !item.placesChildrenOutOfSight { return }
        let style = item.layoutStyle
        let insets = style.insets
        let inner = Rect(x: frame.x + insets.left, y: frame.y + insets.top,
                         width: max(0, frame.width - insets.horizontal), height: max(0, frame.height - insets.vertical))
        switch style.arrangement {
        case .leaf:
            return
        case .vertical:
            if item.placesChildrenOutOfSight || style.justify != .start || !placeColumnInSight(item, in: inner, sight: sight, style: style) {
                placeLinear(item.layoutChildren, in: inner, sight: sight, style: style, vertical: true)
            }
        case .horizontal:
            placeLinear(item.layoutChildren, in: inner, sight: sight, style: style, vertical: false)
        case .scrolling:
            let height = placeScrolling(item.layoutChildren, in: inner, sight: sight, style: style, offset: item.scrollOffset)
            item.contentHeight = height
        case .overlay:
            for child in item.layoutChildren {
                let margin = child.layoutStyle.margin
                let room = Size(width: inner.width - margin.horizontal, height: inner.height - margin.vertical)
                let hasWidth = child.layoutStyle.width != nil
                let hasHeight = child.layoutStyle.height != nil
                var size = measure(child, available: room, stretch: !hasWidth)
                if !hasHeight && child.layoutStyle.arrangement != .leaf { size.height = room.height }
                let x = inner.x + margin.left + offset(free: room.width - size.width, alignment: style.align)
                let y = inner.y + margin.top + offset(free: room.height - size.height, justification: style.justify)
                place(child, in: Rect(x: x, y: y, width: size.width, height: size.height), sight: sight)
            }
        }
    }

    private static func offset(free: Int, alignment: Alignment) -> Int {
        switch alignment {
        case .start, .stretch: return 0
        case .center: return max(0, free / 2)
        case .end: return max(0, free)
        }
    }

    private static func offset(free: Int, justification: Justification) -> Int {
        switch justification {
        case .start, .spaceBetween, .spaceAround: return 0
        case .center: return max(0, free / 2)
        case .end: return max(0, free)
        }
    }

    /// Places a column's (or row's) children along the main axis.
    private static func placeLinear(_ children: [any LayoutItem], in inner: Rect, sight: Rect, style: LayoutStyle, vertical: Bool) {
        guard !children.isEmpty else { return }
        let mainRoom = vertical ? inner.height : inner.width
        let crossRoom = vertical ? inner.width : inner.height
        let axis: Arrangement = vertical ? .vertical : .horizontal

        // Cross sizes and main sizes of the children that do not grow.
        var cross = [Int](repeating: 0, count: children.count)
        var main = [Int](repeating: 0, count: children.count)
        var weights = [Double](repeating: 0, count: children.count)
        var used = style.gap * (children.count - 1)
        // Where each child of a column starts when the column starts them at the top and
        // none grows: then a static child's height below the sight changes nothing.
        let placesFromTop = vertical && style.justify == .start && !children.contains { $0.layoutStyle.growth(along: axis) != nil }
        var top = inner.y
        for (index, child) in children.enumerated() {
            let childStyle = child.layoutStyle
            let margin = childStyle.margin
            let mainMargin = vertical ? margin.vertical : margin.horizontal
            // Only a child that draws only in sight: elsewhere a scroll view's height decides
            // whether it takes focus, seen or not.
            let bounded = placesFromTop && !child.placesChildrenOutOfSight
            let enough = bounded ? rowsToBottom(of: sight, from: top + margin.top, insets: childStyle.insets) : .max
            let size = sizeInLine(child, inner: inner, used: used, style: style, vertical: vertical, enough: enough)
            top += margin.vertical + size.height + style.gap
            cross[index] = vertical ? size.width : size.height
            if let weight = childStyle.growth(along: axis) {
                weights[index] = weight
                main[index] = 0
                used += mainMargin
            } else {
                main[index] = vertical ? size.height : size.width
                used += main[index] + mainMargin
            }
        }

        // Share what is left among growing children, by weight, rounding fairly.
        let free = max(0, mainRoom - used)
        let totalWeight = weights.reduce(0, +)
        if totalWeight > 0 {
            var given = 0
            var accumulated = 0.0
            for index in children.indices where weights[index] > 0 {
                accumulated += weights[index]
                let share = Int((Double(free) * accumulated / totalWeight).rounded()) - given
                given += share
                let childStyle = children[index].layoutStyle
                main[index] = clamp(share,
                                    min: vertical ? childStyle.minHeight : childStyle.minWidth,
                                    max: vertical ? childStyle.maxHeight : childStyle.maxWidth,
                                    of: mainRoom)
            }
        }

        // Justify the children when nothing grew into the free space.
        let leftover = totalWeight > 0 ? 0 : free
        var position = 0
        var spacing = style.gap
        switch style.justify {
        case .start: break
        case .center: position = leftover / 2
        case .end: position = leftover
        case .spaceBetween:
            if children.count > 1 { spacing += leftover / (children.count - 1) }
        case .spaceAround:
            let around = leftover / children.count
            position = around / 2
            spacing += around
        }
        var extra = style.justify == .spaceBetween && children.count > 1 ? leftover % (children.count - 1) : 0

        for (index, child) in children.enumerated() {
            let margin = child.layoutStyle.margin
            let crossOffset = crossOffset(of: child, size: cross[index], room: crossRoom, style: style, vertical: vertical)
            let mainStart = position + (vertical ? margin.top : margin.left)
            let frame = vertical
                ? Rect(x: inner.x + crossOffset, y: inner.y + mainStart, width: cross[index], height: main[index])
                : Rect(x: inner.x + mainStart, y: inner.y + crossOffset, width: main[index], height: cross[index])
            place(child, in: frame, sight: sight)
            position = mainStart + main[index] + (vertical ? margin.bottom : margin.right) + spacing
            if extra > 0 {
                position += 1
                extra -= 1
            }
        }
    }

    /// A child's size in a line of children (a column when `vertical`, else a row), `used`
    /// the main room its siblings took. `enough` bounds a column child's content height (see
    /// `contentHeight`).
    private static func sizeInLine(_ child: any LayoutItem, inner: Rect, used: Int, style: LayoutStyle, vertical: Bool, enough: Int) -> Size {
        let mainRoom = vertical ? inner.height : inner.width
        let crossRoom = vertical ? inner.width : inner.height
        let childStyle = child.layoutStyle
        let margin = childStyle.margin
        let crossMargin = vertical ? margin.horizontal : margin.vertical
        let mainMargin = vertical ? margin.vertical : margin.horizontal
        let crossDimension = vertical ? childStyle.width : childStyle.height
        let stretches = style.align == .stretch && crossDimension == nil
        if vertical && stretches {
            let width = clamp(crossRoom - crossMargin, min: childStyle.minWidth, max: childStyle.maxWidth, of: crossRoom)
            return Size(width: width, height: heightForWidth(child, width: width, available: mainRoom, enough: enough))
        }
        let available = vertical
            ? Size(width: crossRoom - crossMargin, height: mainRoom - mainMargin)
            : Size(width: max(0, mainRoom - used) - mainMargin, height: crossRoom - crossMargin)
        var size = measure(child, available: available, basis: Size(width: inner.width, height: inner.height))
        if stretches {
            size.height = clamp(crossRoom - crossMargin, min: childStyle.minHeight, max: childStyle.maxHeight, of: crossRoom)
        }
        return size
    }

    /// Where a child of a line starts across it, from the line's inner edge.
    private static func crossOffset(of child: any LayoutItem, size: Int, room: Int, style: LayoutStyle, vertical: Bool) -> Int {
        let margin = child.layoutStyle.margin
        let crossMargin = vertical ? margin.horizontal : margin.vertical
        return (vertical ? margin.left : margin.top) + offset(free: room - crossMargin - size, alignment: style.align)
    }

    /// The content height past which a child starting at row `top`, with `insets`, reaches
    /// below `sight` with its inside and its bottom edge: more changes nothing that shows.
    private static func rowsToBottom(of sight: Rect, from top: Int, insets: Edges) -> Int {
        max(0, sight.maxY - top - insets.top + 1)
    }

    /// Places the children of a column that starts them at the top and draws only in sight
    /// (`LayoutItem.placesChildrenOutOfSight` false) one after the other, down to the bottom
    /// of `sight`; below it, only children made already are placed (so none is left where it
    /// once showed), and no more are asked for: a long column makes and measures what shows.
    /// False, with nothing placed, when a child grows: its share needs every other height.
    private static func placeColumnInSight(_ item: any LayoutItem, in inner: Rect, sight: Rect, style: LayoutStyle) -> Bool {
        var frames: [(child: any LayoutItem, frame: Rect)] = []
        var top = inner.y
        while let child = item.layoutChild(at: frames.count, resolving: top < sight.maxY) {
            let childStyle = child.layoutStyle
            guard childStyle.growth(along: .vertical) == nil else { return false }
            let margin = childStyle.margin
            let enough = rowsToBottom(of: sight, from: top + margin.top, insets: childStyle.insets)
            let size = sizeInLine(child, inner: inner, used: 0, style: style, vertical: true, enough: enough)
            let x = inner.x + crossOffset(of: child, size: size.width, room: inner.width, style: style, vertical: true)
            frames.append((child, Rect(x: x, y: top + margin.top, width: size.width, height: size.height)))
            top += margin.vertical + size.height + style.gap
        }
        for (child, frame) in frames {
            place(child, in: frame, sight: sight)
        }
        return true
    }

    private static func heightForWidth(_ item: any LayoutItem, width: Int, available: Int, enough: Int = .max) -> Int {
        let style = item.layoutStyle
        if let fixed = resolve(style.height, of: available) {
            return clamp(fixed, min: style.minHeight, max: style.maxHeight, of: available)
        }
        let content = contentHeight(item, maxWidth: max(0, width - style.insets.horizontal), enough: enough) + style.insets.vertical
        return clamp(content, min: style.minHeight, max: style.maxHeight, of: available)
    }

    /// Stacks children top to bottom at their natural heights, shifted up by the scroll offset;
    /// returns the height of all content.
    private static func placeScrolling(_ children: [any LayoutItem], in inner: Rect, sight: Rect, style: LayoutStyle, offset: Int) -> Int {
        var y = 0
        for (index, child) in children.enumerated() {
            let childStyle = child.layoutStyle
            let margin = childStyle.margin
            let width = clamp(resolve(childStyle.width, of: inner.width) ?? (inner.width - margin.horizontal),
                              min: childStyle.minWidth, max: childStyle.maxWidth, of: inner.width)
            let height = heightForWidth(child, width: width, available: inner.height)
            y += margin.top
            place(child, in: Rect(x: inner.x + margin.left, y: inner.y + y - offset, width: width, height: height), sight: sight)
            y += height + margin.bottom + (index < children.count - 1 ? style.gap : 0)
        }
        return y
    }
}
