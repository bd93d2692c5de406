import HybridCells
import HybridJSON
import HybridWidgets

/// The developer console (issue 15): every `console.*` line and every problem of the running
/// app kept in full — location, stack, the time since the app started — and shown, newest
/// last and scrollable, in a panel over the bottom of the screen while it is open (F12, or
/// ctrl+\ for terminals that keep F12). For a development bundle, an uncaught error while it
/// starts is shown whole over the screen (React Native's red box) until Esc.
///
/// It keeps the newest `capacity` entries, each cut to `maximumEntryLength` characters, so a
/// script that logs in a loop costs bounded memory.
struct DevConsole {
    /// What an entry is.
    enum Kind: String {
        case log, info, debug, warn, error
        /// A problem of a script, an action or a binding (also shown on the bottom row).
        case problem
    }

    /// One line of `console.*` or one problem, as it was written.
    struct Entry: Equatable {
        /// Seconds since the app started.
        var time: Double
        var kind: Kind
        var text: String
    }

    static let capacity = 1_000
    static let maximumEntryLength = 16_384
    /// The keys that open and close it.
    static let toggleKeys: Set<String> = ["f12", "ctrl+\\"]

    private(set) var entries: [Entry] = []
    /// Whether the panel is shown.
    private(set) var isOpen = false
    /// How many lines the panel is scrolled up from the newest.
    private var offset = 0
    /// The start error of a development bundle, shown whole until dismissed.
    private(set) var redBox: String?
    /// Whether a development bundle is starting: its errors show in the red box.
    private var isWatchingStart = false
    /// Told each entry as it is recorded (`hybrid run --log FILE`).
    var onEntry: ((Entry) -> Void)?

    /// Records `text` of `kind` at `time` (seconds since the app started).
    mutating func record(_ kind: Kind, _ text: String, at time: Double) {
        let kept = text.count > Self.maximumEntryLength ? String(text.prefix(Self.maximumEntryLength)) + "…" : text
        let entry = Entry(time: time, kind: kind, text: kept)
        entries.append(entry)
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        onEntry?(entry)
    }

    /// A development bundle starts: until `startEnded()`, its first uncaught error is shown
    /// whole over the screen (`scriptFailed`).
    mutating func watchStart() {
        isWatchingStart = true
        redBox = nil
    }

    /// The bundle said it is ready, or someone used the app: later errors go to the bottom row
    /// only.
    mutating func startEnded() {
        isWatchingStart = false
    }

    /// A script failed: while a development bundle starts, its first failure shows in the red box.
    mutating func scriptFailed(_ report: String) {
        if isWatchingStart, redBox == nil { redBox = report }
    }

    /// Takes the keys that are the console's: its toggles always; while the red box shows, Esc;
    /// while the panel is open, the keys that scroll it. False for every other key.
    mutating func handleKey(_ key: String) -> Bool {
        if Self.toggleKeys.contains(key) {
            isOpen.toggle()
            offset = 0
            return true
        }
        if redBox != nil, key == "esc" {
            redBox = nil
            return true
        }
        guard isOpen else { return false }
        switch key {
        case "up": offset += 1
        case "down": offset = max(0, offset - 1)
        case "pageup": offset += 10
        case "pagedown": offset = max(0, offset - 10)
        case "home": offset = Int.max / 2
        case "end": offset = 0
        default: return false
        }
        return true
    }

    /// Draws the red box or the open panel over `buffer`.
    mutating func draw(into buffer: inout Buffer) {
        if let redBox { drawRedBox(redBox, into: &buffer) }
        if isOpen { drawPanel(into: &buffer) }
    }

    // MARK: Drawing

    private static let borderStyle = CellStyle(foreground: .ansi(15), background: .ansi(4), attributes: .bold)
    private static let panelStyle = CellStyle()
    private static let timeStyle = CellStyle(attributes: .dim)

    private static func style(of kind: Kind) -> CellStyle {
        switch kind {
        case .problem, .error: return CellStyle(foreground: .ansi(9))
        case .warn: return CellStyle(foreground: .ansi(11))
        case .debug: return CellStyle(attributes: .dim)
        case .log, .info: return CellStyle()
        }
    }

    /// The panel: a title row, then the newest lines that fit, over the bottom two fifths.
    private mutating func drawPanel(into buffer: inout Buffer) {
        guard buffer.height >= 3, buffer.width >= 10 else { return }
        let height = min(buffer.height - 1, max(5, buffer.height * 2 / 5))
        let top = buffer.height - height
        let lines = Self.lines(of: entries, width: buffer.width)
        let visible = height - 1
        offset = min(offset, max(0, lines.count - visible))
        let end = lines.count - offset
        let shown = lines[max(0, end - visible)..<end]
        buffer.fill(Rect(x: 0, y: top, width: buffer.width, height: height), style: Self.panelStyle)
        let position = offset == 0 ? "newest" : "\(offset) line\(offset == 1 ? "" : "s") up"
        let title = " console · \(entries.count) entr\(entries.count == 1 ? "y" : "ies") · \(position) · ↑↓ PgUp PgDn scroll · F12 or ctrl+\\ closes "
        buffer.fill(Rect(x: 0, y: top, width: buffer.width, height: 1), style: Self.borderStyle)
        buffer.write(title, x: 0, y: top, limit: buffer.width, style: Self.borderStyle)
        for (row, line) in shown.enumerated() {
            var x = 0
            if let time = line.time {
                x = buffer.write(time, x: 0, y: top + 1 + row, limit: buffer.width, style: Self.timeStyle)
            }
            buffer.write(line.text, x: x, y: top + 1 + row, limit: buffer.width - x, style: Self.style(of: line.kind))
        }
    }

    /// The red box: the whole report, wrapped, in a red frame over the screen.
    private func drawRedBox(_ report: String, into buffer: inout Buffer) {
        guard buffer.height >= 3, buffer.width >= 10 else { return }
        let style = CellStyle(foreground: .ansi(15), background: .ansi(1))
        buffer.fill(Rect(x: 0, y: 0, width: buffer.width, height: buffer.height), style: style)
        let bold = CellStyle(foreground: .ansi(15), background: .ansi(1), attributes: .bold)
        buffer.write(" The bundle failed while starting", x: 0, y: 0, limit: buffer.width, style: bold)
        let body = report.split(separator: "\n", omittingEmptySubsequences: false).flatMap { TextLayout.lines(of: String($0), width: buffer.width - 2, wrap: .char) }
        for (row, line) in body.prefix(buffer.height - 3).enumerated() {
            buffer.write(line, x: 1, y: 2 + row, limit: buffer.width - 2, style: style)
        }
        buffer.write(" esc: dismiss · F12: the console", x: 0, y: buffer.height - 1, limit: buffer.width, style: bold)
    }

    /// A display line of the panel: an entry's first line carries its time.
    private struct Line {
        var time: String?
        var kind: Kind
        var text: String
    }

    /// Every entry as display lines of `width` cells: `[mm:ss.mmm] kind: text`, later lines of
    /// the entry (a stack) indented under it, long lines wrapped.
    private static func lines(of entries: [Entry], width: Int) -> [Line] {
        var lines: [Line] = []
        for entry in entries {
            let time = timestamp(entry.time) + " "
            let label = entry.kind == .log ? "" : "\(entry.kind.rawValue): "
            for (index, part) in entry.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let text = index == 0 ? label + part : "  " + part
                let room = width - (index == 0 ? time.count : 0)
                for (piece, wrapped) in TextLayout.lines(of: String(text), width: max(1, room), wrap: .char).enumerated() {
                    lines.append(Line(time: index == 0 && piece == 0 ? time : nil, kind: entry.kind, text: piece == 0 ? wrapped : "  " + wrapped))
                }
            }
        }
        return lines
    }

    /// `mm:ss.mmm` since the app started.
    static func timestamp(_ seconds: Double) -> String {
        let milliseconds = Int((max(0, seconds) * 1000).rounded())
        let minutes = milliseconds / 60_000
        let rest = milliseconds % 60_000
        return String(format: "%02d:%02d.%03d", minutes, rest / 1000, rest % 1000)
    }
}
