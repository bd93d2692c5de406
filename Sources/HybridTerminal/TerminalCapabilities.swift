/// What the terminal answered about itself (`TerminalCapabilities.query`), read from its input
/// by `InputDecoder` between the keys.
public enum TerminalReport: Equatable, Sendable {
    /// The kitty keyboard protocol's flags in effect (`ESC [ ? flags u`): the terminal has it.
    case keyboardFlags(Int)
    /// DECRPM (`ESC [ ? mode ; state $ y`): a DEC private mode's state, 0 when unknown to the
    /// terminal, 1 set, 2 reset, 3 set for good, 4 reset for good.
    case mode(Int, state: Int)
    /// Primary device attributes (`ESC [ ? … c`): every terminal answers this one, and answers
    /// in order, so it ends the answers.
    case deviceAttributes
}

/// The features a session uses only where the terminal says it has them (progressive
/// enhancement, as kitty's keyboard protocol asks): the session sends `query` when it starts
/// and each `TerminalReport` that comes back updates these.
public struct TerminalCapabilities: Equatable, Sendable {
    /// The kitty keyboard protocol: keys as `ESC [ code ; modifiers u`, so `ctrl+i` is not Tab,
    /// Esc is not the start of a sequence, and modifiers are exact.
    public var keyboardProtocol = false
    /// Synchronized output (DEC mode 2026): a frame between its markers is shown at once.
    public var synchronizedOutput = false
    /// Whether the terminal answered at all (its device attributes came); until then, and on a
    /// terminal that never answers, the features stay off.
    public var answered = false

    /// Capabilities as given; by default nothing known yet.
    public init(keyboardProtocol: Bool = false, synchronizedOutput: Bool = false, answered: Bool = false) {
        self.keyboardProtocol = keyboardProtocol
        self.synchronizedOutput = synchronizedOutput
        self.answered = answered
    }

    /// The questions: the keyboard protocol's flags (`ESC [ ? u`), the state of mode 2026
    /// (DECRQM, `ESC [ ? 2026 $ p`), then the primary device attributes (`ESC [ c`), which
    /// every terminal answers last: a terminal that answers only that one has neither feature.
    public static let query: [UInt8] = Array("\u{1B}[?u\u{1B}[?2026$p\u{1B}[c".utf8)

    /// Takes in one answer.
    public mutating func update(with report: TerminalReport) {
        switch report {
        case .keyboardFlags:
            keyboardProtocol = true
        case .mode(2026, let state):
            // Set or reset both mean the terminal knows the mode; 4 (reset for good) does not help.
            synchronizedOutput = state == 1 || state == 2 || state == 3
        case .mode:
            break
        case .deviceAttributes:
            answered = true
        }
    }
}
