import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `keyhelp`: one line of the keys that work now — the focused widget's own (each widget
/// declares what its `handleKey` answers, `Widget.keyHelp`), Tab when focus has somewhere to
/// go, then the screen's `keys` whose action has a `help` — like
/// `↑/↓ move · enter open · ctrl+n new note · esc quit`. Keys are dim, their words plain, in
/// the node's style; the line is cut with "…" to its width, never wrapped.
///
/// A binding without `help` is left out, as Bubble Tea's help lists only the bindings given
/// help text and Textual's footer hides those marked `show=False`: the help is the author's
/// choice to show a key, and a key alone does not say what it does.
struct Keyhelp: Widget {
    static let typeName = "keyhelp"
    static let fields: [String] = []

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Keyhelp? { Keyhelp() }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        // The focused view is known once the whole frame is resolved, before it is measured.
        place.view(Content(bindings: resolver.document.keys, focus: resolver.focus))
    }

    struct Content: ViewContent {
        let bindings: [(key: String, action: Action)]
        let focus: FrameFocus

        /// What the line lists, in order.
        var hints: [KeyHint] {
            let state = focus.state
            let focused = state.focused.map { $0.node.widget.keyHelp(for: $0) } ?? []
            // The focused widget gets a key first (InputRouter), so its own word for it stands.
            let taken = Set(focused.flatMap(\.keys))
            var hints = focused
            let boundKeys = Set(bindings.map(\.key))
            if state.tabMovesFocus, !boundKeys.contains("tab") {
                hints.append(KeyHint(keys: ["tab"], help: "next"))
            }
            for binding in bindings where !taken.contains(binding.key) {
                if let help = binding.action.help { hints.append(KeyHint(keys: [binding.key], help: help)) }
            }
            return hints
        }

        /// The line as runs: dim keys, plain words, dim separators.
        func runs(style: CellStyle) -> [TextRun] {
            let dim = Painter.dimmed(style)
            var runs: [TextRun] = []
            for (index, hint) in hints.enumerated() {
                if index > 0 { runs.append(TextRun(text: " · ", style: dim)) }
                runs.append(TextRun(text: hint.keys.map(KeyHint.display).joined(separator: "/"), style: dim))
                runs.append(TextRun(text: " " + hint.help, style: style))
            }
            return runs
        }

        func size(of view: View, maxWidth: Int) -> Size {
            let width = runs(style: view.cellStyle).reduce(0) { $0 + DisplayWidth.of($1.text) }
            return Size(width: min(width, maxWidth), height: 1)
        }

        func fixedHeight(of view: View) -> Int? { 1 }

        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            let runs = runs(style: view.cellStyle)
            let text = runs.map(\.text).joined()
            let cut = Painter.truncate(text, to: area.inner.width)
            guard cut != text else {
                return Painter.write(runs, x: area.inner.x, y: area.inner.y, into: &buffer, clip: area.clip)
            }
            // The same characters, in their runs' styles, then the ellipsis.
            var left = cut.count - 1
            var shown: [TextRun] = []
            for run in runs where left > 0 {
                shown.append(TextRun(text: String(run.text.prefix(left)), style: run.style))
                left -= min(left, run.text.count)
            }
            shown.append(TextRun(text: "…", style: Painter.dimmed(view.cellStyle)))
            Painter.write(shown, x: area.inner.x, y: area.inner.y, into: &buffer, clip: area.clip)
        }
    }
}

/// One entry of a `keyhelp` line: keys (as documents name them) and what they do.
struct KeyHint: Equatable {
    let keys: [String]
    let help: String

    /// A key as a person reads it: arrows as arrows, the rest as documents write it
    /// (`ctrl+n`, `esc`, `enter`).
    static func display(_ key: String) -> String {
        ["up": "↑", "down": "↓", "left": "←", "right": "→", "pageup": "pgup", "pagedown": "pgdn"][key] ?? key
    }
}

/// The view tree of the frame being drawn, set once it is resolved and read when it is
/// measured and painted, so a `keyhelp` anywhere in the tree sees the focused view (known
/// only then) and whether Tab has somewhere to go (a scroll view takes focus only once laid out).
final class FrameFocus {
    /// The frame's root; weak, since the tree holds the `keyhelp` that holds this.
    weak var root: View?

    /// The focused view, and whether Tab moves focus (two views or more take it).
    var state: (focused: View?, tabMovesFocus: Bool) {
        var focused: View?
        var count = 0
        func visit(_ view: View) {
            if view.isFocused { focused = view }
            if view.isFocusable { count += 1 }
            view.interactiveChildren.forEach(visit)
        }
        root.map(visit)
        return (focused, count > 1)
    }
}
