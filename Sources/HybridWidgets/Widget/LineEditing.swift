import HybridDocument

/// Text being edited with a caret, and the editing keys of `input` and `textarea`: the
/// readline (emacs-mode) keys people's fingers know from shells, plus the arrows, Home, End,
/// Backspace and Delete. One model for both widgets, so a key edits the same way in each.
///
/// The caret counts `Character`s (grapheme clusters), so it never stops inside an emoji or a
/// letter with its accents. Commands that name "the line" (`ctrl+a`, `ctrl+e`, `ctrl+u`,
/// `ctrl+k`) act on the text between line breaks around the caret (a one-line input has one
/// line), and no deletion but Backspace and Delete takes a line break: killing a word stops at
/// the line's edge, while moving by words goes on to the next line. Words are readline's: runs
/// of letters and digits.
struct LineEditing: Equatable {
    /// One editing command.
    enum Command: Equatable {
        case characterBack, characterForward
        case lineStart, lineEnd
        case wordBack, wordForward
        case deleteBack, deleteForward
        case deleteWordBack, deleteWordForward
        case deleteToLineStart, deleteToLineEnd
    }

    /// The editing command a key names, or `nil` when the key is not an editing key.
    static func command(forKey key: String) -> Command? {
        switch key {
        case "left": .characterBack
        case "right": .characterForward
        case "home", "ctrl+a": .lineStart
        case "end", "ctrl+e": .lineEnd
        case "alt+b", "ctrl+left": .wordBack
        case "alt+f", "ctrl+right": .wordForward
        case "backspace": .deleteBack
        case "delete": .deleteForward
        case "ctrl+w", "alt+backspace": .deleteWordBack
        case "alt+d": .deleteWordForward
        case "ctrl+u": .deleteToLineStart
        case "ctrl+k": .deleteToLineEnd
        default: nil
        }
    }

    /// The text, one element per `Character`.
    private(set) var characters: [Character]
    /// Where the caret is: before `characters[caret]`, 0 through `characters.count`.
    private(set) var caret: Int

    /// `text` with the caret at `caret` (kept inside the text), or after the text.
    init(_ text: String, caret: Int? = nil) {
        characters = Array(text)
        self.caret = min(max(0, caret ?? characters.count), characters.count)
    }

    /// The text as it is now.
    var text: String { String(characters) }

    /// Whether `character` ends a line (`\r\n` is one `Character`).
    static func isLineBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r\n"
    }

    /// Whether `character` belongs to a word.
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// Applies `command`; the text and caret stay as they are when there is nothing to do
    /// (Backspace at the start, a word back from the first word).
    mutating func perform(_ command: Command) {
        switch command {
        case .characterBack: caret = max(0, caret - 1)
        case .characterForward: caret = min(characters.count, caret + 1)
        case .lineStart: caret = lineStart
        case .lineEnd: caret = lineEnd
        case .wordBack: caret = wordStartBefore
        case .wordForward: caret = wordEndAfter
        case .deleteBack: delete(max(0, caret - 1)..<caret)
        case .deleteForward: delete(caret..<min(characters.count, caret + 1))
        case .deleteWordBack: delete(max(lineStart, wordStartBefore)..<caret)
        case .deleteWordForward: delete(caret..<min(lineEnd, wordEndAfter))
        case .deleteToLineStart: delete(lineStart..<caret)
        case .deleteToLineEnd: delete(caret..<lineEnd)
        }
    }

    /// Puts `text` before the caret and moves the caret after it.
    mutating func insert(_ text: String) {
        let inserted = Array(text)
        characters.insert(contentsOf: inserted, at: caret)
        caret += inserted.count
    }

    /// Moves the caret to `position`, kept inside the text.
    mutating func moveCaret(to position: Int) {
        caret = min(max(0, position), characters.count)
    }

    private mutating func delete(_ range: Range<Int>) {
        characters.removeSubrange(range)
        caret = range.lowerBound
    }

    /// The start of the caret's line: just after the line break before it.
    private var lineStart: Int {
        characters[..<caret].lastIndex(where: Self.isLineBreak).map { $0 + 1 } ?? 0
    }

    /// The end of the caret's line: its line break, or the end of the text.
    private var lineEnd: Int {
        characters[caret...].firstIndex(where: Self.isLineBreak) ?? characters.count
    }

    /// readline's backward-word: back over what is not a word, then to the start of the word.
    private var wordStartBefore: Int {
        var position = caret
        while position > 0, !Self.isWordCharacter(characters[position - 1]) { position -= 1 }
        while position > 0, Self.isWordCharacter(characters[position - 1]) { position -= 1 }
        return position
    }

    /// readline's forward-word: on over what is not a word, then to the end of the word.
    private var wordEndAfter: Int {
        var position = caret
        while position < characters.count, !Self.isWordCharacter(characters[position]) { position += 1 }
        while position < characters.count, Self.isWordCharacter(characters[position]) { position += 1 }
        return position
    }
}

/// What `input` and `textarea` share besides the editing model: where their text lives.
extension WidgetHost {
    /// What a text field holds now: the state its `value` is bound to (which may have changed
    /// since the last frame, while typing a run of characters), what was typed into it when it
    /// is bound to nothing, or what it showed in the last frame (`shown`).
    func text(of view: View, boundTo value: PropertyValue?, shown: String?) -> String {
        if let bound = boundValue(value, of: view) { return bound.map { $0.stringValue ?? $0.jsonText } ?? "" }
        if let typed = interaction.text[view.key] { return typed }
        return shown ?? ""
    }

    /// Stores a text field's new text (through its binding, or in the interaction when it is
    /// bound to nothing) and runs its `onChange`.
    func changeText(of view: View, boundTo value: PropertyValue?, to text: String, onChange: Action?) {
        if value?.bindingName == nil { interaction.text[view.key] = text }
        write(.string(text), to: value, of: view)
        run(onChange, for: view, event: view.event(value: .string(text)))
    }
}
