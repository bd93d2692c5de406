/// Escape sequences for the session around frames (screen mode, cursor, mouse). Frames
/// themselves come from `FrameEncoder`; these are the bytes a host writes when it starts,
/// suspends or ends a full-screen session.
public enum TerminalControl {
    /// Switch to the alternate screen (the user's scrollback stays untouched).
    public static let enterAlternateScreen: [UInt8] = Array("\u{1B}[?1049h".utf8)
    /// Return to the normal screen.
    public static let leaveAlternateScreen: [UInt8] = Array("\u{1B}[?1049l".utf8)
    /// Hide the cursor.
    public static let hideCursor: [UInt8] = Array("\u{1B}[?25l".utf8)
    /// Show the cursor.
    public static let showCursor: [UInt8] = Array("\u{1B}[?25h".utf8)
    /// Reset the pen and erase the whole screen.
    public static let clearScreen: [UInt8] = Array("\u{1B}[0m\u{1B}[2J".utf8)
    /// Reset all text attributes and colours.
    public static let resetStyle: [UInt8] = Array("\u{1B}[0m".utf8)
    /// Report mouse buttons, drags and the wheel in SGR (1006) encoding.
    public static let enableMouse: [UInt8] = Array("\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h".utf8)
    /// Stop mouse reports.
    public static let disableMouse: [UInt8] = Array("\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l".utf8)
    /// Deliver pastes wrapped in `ESC [200~` … `ESC [201~`.
    public static let enableBracketedPaste: [UInt8] = Array("\u{1B}[?2004h".utf8)
    /// Stop wrapping pastes.
    public static let disableBracketedPaste: [UInt8] = Array("\u{1B}[?2004l".utf8)

    /// Push the kitty keyboard protocol's flags for this screen: 1, disambiguate escape codes
    /// (modified keys and Esc as `ESC [ code ; modifiers u`; plain text and Enter, Tab and
    /// Backspace as before).
    public static let pushKeyboardFlags: [UInt8] = Array("\u{1B}[>1u".utf8)
    /// Pop them, back to what was in effect before.
    public static let popKeyboardFlags: [UInt8] = Array("\u{1B}[<u".utf8)

    /// Start of a frame the terminal should show at once (DEC mode 2026, sent only where the
    /// terminal says it has it: `TerminalCapabilities`).
    public static let beginSynchronizedUpdate: [UInt8] = Array("\u{1B}[?2026h".utf8)
    /// End of that frame.
    public static let endSynchronizedUpdate: [UInt8] = Array("\u{1B}[?2026l".utf8)

    /// CUP to the zero-based cell (`x`, `y`), e.g. to place the caret of a focused input.
    public static func moveCursor(x: Int, y: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.appendCSI()
        out.appendDecimal(Swift.max(0, y) + 1)
        out.append(0x3B)
        out.appendDecimal(Swift.max(0, x) + 1)
        out.append(0x48)
        return out
    }
}
