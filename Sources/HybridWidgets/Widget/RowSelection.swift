import HybridDocument

/// The keys of widgets whose rows the user selects (lists, tables): Up/Down/Home/End move
/// the selection, Enter picks the selected row. Space stays free for screen keys, as SPEC §2
/// has only Enter select.
enum RowSelection {
    /// Moves the selection of `view`'s `count` rows for `key`, or calls `pick` with the selected
    /// row on Enter; false when the key is not for it.
    static func handle(_ key: String, on view: View, count: Int, host: any WidgetHost, pick: (Int) -> Void) -> Bool {
        guard count > 0 else { return false }
        let current = min(host.interaction.selection[view.key] ?? 0, count - 1)
        let next: Int
        switch key {
        case "up": next = max(0, current - 1)
        case "down": next = min(count - 1, current + 1)
        case "home", "pageup": next = 0
        case "end", "pagedown": next = count - 1
        case "enter":
            pick(current)
            return true
        default: return false
        }
        host.interaction.selection[view.key] = next
        return true
    }

    /// What `handle` answers, for `keyhelp`: moving when there is somewhere to move, Enter
    /// when it picks something.
    static func keyHelp(count: Int, onSelect: Action?) -> [KeyHint] {
        var hints: [KeyHint] = []
        if count > 1 { hints.append(KeyHint(keys: ["up", "down"], help: "move")) }
        if count > 0, let onSelect { hints.append(KeyHint(keys: ["enter"], help: onSelect.help ?? "select")) }
        return hints
    }

    /// A selection left from a longer list lands on the last row; none when there are no rows.
    static func clamp(_ selected: Int?, count: Int) -> Int? {
        selected.map { min($0, count - 1) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The first row is selected when a view with rows takes focus.
    static func focus(_ view: View, interaction: inout Interaction) {
        if interaction.selection[view.key] == nil { interaction.selection[view.key] = 0 }
    }
}
