import HybridCells

/// `ui.toast(text, {level, ms})` (SPEC §3): short messages stacked at the top right of the
/// screen, each gone after its time, never taking the focus. At most `limit` show at once; a
/// newer one pushes the oldest out.
struct Toasts {
    /// How a toast looks.
    enum Level: String {
        case info, warn, error
    }

    struct Toast: Equatable {
        var id: Int
        var text: String
        var level: Level
    }

    static let limit = 5
    /// How long a toast shows when the script does not say (milliseconds).
    static let defaultMilliseconds = 3000.0

    private(set) var shown: [Toast] = []
    private var nextID = 1

    /// Shows `text`; answers its id, for `remove(id:)` when its time is up.
    mutating func add(_ text: String, level: Level) -> Int {
        let id = nextID
        nextID += 1
        // One line each: a toast is a glance, not a document.
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        shown.append(Toast(id: id, text: line, level: level))
        if shown.count > Self.limit { shown.removeFirst(shown.count - Self.limit) }
        return id
    }

    /// Takes the toast `id` away (its time is up); false when it was gone already.
    @discardableResult
    mutating func remove(id: Int) -> Bool {
        guard let index = shown.firstIndex(where: { $0.id == id }) else { return false }
        shown.remove(at: index)
        return true
    }

    /// Takes every toast away (the bundle that showed them unloaded).
    mutating func removeAll() {
        shown.removeAll()
    }

    /// Draws the toasts, newest lowest, at the top right of `buffer`, each at most half as wide.
    func draw(into buffer: inout Buffer) {
        guard buffer.width >= 8 else { return }
        let widest = max(6, buffer.width / 2)
        for (row, toast) in shown.enumerated() where row < buffer.height {
            let style = Self.style(of: toast.level)
            let marker = toast.level == .info ? "•" : "!"
            var text = " \(marker) \(toast.text) "
            if DisplayWidth.of(text) > widest {
                text = String(text.prefix(widest - 2)) + "… "
            }
            let width = min(widest, DisplayWidth.of(text))
            let x = buffer.width - width
            buffer.fill(Rect(x: x, y: row, width: width, height: 1), style: style)
            buffer.write(text, x: x, y: row, limit: width, style: style)
        }
    }

    private static func style(of level: Level) -> CellStyle {
        switch level {
        case .info: return CellStyle(foreground: .ansi(0), background: .ansi(6))
        case .warn: return CellStyle(foreground: .ansi(0), background: .ansi(3))
        case .error: return CellStyle(foreground: .ansi(15), background: .ansi(1), attributes: .bold)
        }
    }
}
