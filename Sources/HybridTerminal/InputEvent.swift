/// Something the user did at the terminal.
public enum InputEvent: Equatable, Sendable {
    /// A key, named as screens name keys: `a`, `A`, `enter`, `ctrl+r`, `alt+x`, `shift+tab`, `f5`.
    case key(String)
    /// Text pasted in one piece (bracketed paste), newlines included.
    case paste(String)
    /// A mouse event at a 0-based cell.
    case mouse(MouseEvent)
}

/// A mouse event as SGR mouse reporting (mode 1006) gives it.
public struct MouseEvent: Equatable, Sendable {
    /// What happened.
    public enum Kind: Equatable, Sendable {
        case press(button: Int)
        case release(button: Int)
        case drag(button: Int)
        case scrollUp, scrollDown
        case move
    }

    /// What happened.
    public var kind: Kind
    /// Column, from 0.
    public var x: Int
    /// Row, from 0.
    public var y: Int
    /// Modifiers held (`shift`, `alt`, `ctrl`), in that order.
    public var modifiers: [String]

    /// A mouse event.
    public init(kind: Kind, x: Int, y: Int, modifiers: [String] = []) {
        self.kind = kind
        self.x = x
        self.y = y
        self.modifiers = modifiers
    }
}
