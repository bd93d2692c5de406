import HybridTerminal
import XCTest

final class InputDecoderTests: XCTestCase {
    func keys(_ text: String) -> [String] {
        var decoder = InputDecoder()
        return (decoder.feed(Array(text.utf8)) + decoder.flush()).compactMap {
            if case .key(let name) = $0 { return name }
            return nil
        }
    }

    func testPrintableTextControlKeysAndUTF8() {
        XCTAssertEqual(keys("aZ é漢🚀"), ["a", "Z", "space", "é", "漢", "🚀"])
        XCTAssertEqual(keys("\r\t\u{7F}\u{03}\u{12}"), ["enter", "tab", "backspace", "ctrl+c", "ctrl+r"])
    }

    func testArrowsHomeEndPagesAndFunctionKeys() {
        XCTAssertEqual(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}OA"), ["up", "down", "right", "left", "up"])
        XCTAssertEqual(keys("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[2~"),
                       ["home", "end", "home", "end", "pageup", "pagedown", "delete", "insert"])
        XCTAssertEqual(keys("\u{1B}OP\u{1B}OS\u{1B}[15~\u{1B}[24~"), ["f1", "f4", "f5", "f12"])
    }

    func testModifiersAltAndBacktab() {
        XCTAssertEqual(keys("\u{1B}[1;5A\u{1B}[1;2C\u{1B}[3;3~\u{1B}[Z"), ["ctrl+up", "shift+right", "alt+delete", "shift+tab"])
        XCTAssertEqual(keys("\u{1B}x\u{1B}\u{03}"), ["alt+x", "ctrl+alt+c"])
    }

    /// What xterm-like terminals send for the readline keys of inputs and textareas.
    func testReadlineKeysFromTheirRealSequences() {
        XCTAssertEqual(keys("\u{01}\u{05}\u{17}\u{15}\u{0B}"), ["ctrl+a", "ctrl+e", "ctrl+w", "ctrl+u", "ctrl+k"])
        XCTAssertEqual(keys("\u{1B}b\u{1B}f\u{1B}d\u{1B}\u{7F}"), ["alt+b", "alt+f", "alt+d", "alt+backspace"])
        XCTAssertEqual(keys("\u{1B}[1;5D\u{1B}[1;5C\u{1B}Od\u{1B}Oc"), ["ctrl+left", "ctrl+right", "ctrl+left", "ctrl+right"])
        XCTAssertEqual(keys("\u{1B}[3~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}OH\u{1B}OF\u{1B}[7~\u{1B}[8~"),
                       ["delete", "home", "end", "home", "end", "home", "end", "home", "end"])
    }

    /// Ctrl+Enter arrives only through a keyboard protocol that tells it from Enter: the kitty
    /// protocol's CSI u or xterm's modifyOtherKeys; other keys in those forms decode too.
    func testModifiedKeysOfTheKittyProtocolAndModifyOtherKeys() {
        XCTAssertEqual(keys("\u{1B}[13;5u\u{1B}[27;5;13~\u{1B}[13u"), ["ctrl+enter", "ctrl+enter", "enter"])
        XCTAssertEqual(keys("\u{1B}[97;5u\u{1B}[98;3:1u\u{1B}[9;2u\u{1B}[127;3u\u{1B}[27u"),
                       ["ctrl+a", "alt+b", "shift+tab", "alt+backspace", "esc"])
        XCTAssertEqual(keys("\u{1B}[0;5u\u{1B}[5u x"), ["space", "x"], "control codes that name no key are skipped")
    }

    /// Under the kitty protocol (flags pushed by the session): ctrl+i is not Tab, lock keys
    /// change nothing, a repeat is a press, a release is no key (also in the legacy forms
    /// the protocol extends), and its own private-use keys name nothing.
    func testKittyProtocolEventTypesLocksAndItsOwnKeys() {
        XCTAssertEqual(keys("\u{1B}[105;5u\t\u{1B}[105;69u\u{1B}[105;133u"), ["ctrl+i", "tab", "ctrl+i", "ctrl+i"])
        XCTAssertEqual(keys("\u{1B}[97;5:1u\u{1B}[97;5:2u\u{1B}[97;5:3u"), ["ctrl+a", "ctrl+a"])
        XCTAssertEqual(keys("\u{1B}[1;5:3A\u{1B}[1;5:1A\u{1B}[5;1:3~\u{1B}[5;1:2~"), ["ctrl+up", "pageup"])
        XCTAssertEqual(keys("\u{1B}[57399u\u{1B}[57441;2u x"), ["space", "x"])
    }

    /// The terminal's answers to the session's questions are reports, never keys, whatever
    /// keys come around them.
    func testAnswersToTheSessionsQuestionsAreReports() {
        var decoder = InputDecoder()
        let events = decoder.feed(Array("a\u{1B}[?1u\u{1B}[?2026;2$y\u{1B}[?1004;0$yb\u{1B}[?62;22c".utf8))
        XCTAssertEqual(events, [.key("a"), .key("b")])
        XCTAssertEqual(decoder.takeReports(), [.keyboardFlags(1), .mode(2026, state: 2), .mode(1004, state: 0), .deviceAttributes])
        XCTAssertEqual(decoder.takeReports(), [])
        // Split across reads, as a slow link delivers them.
        XCTAssertEqual(decoder.feed(Array("\u{1B}[?20".utf8)), [])
        XCTAssertEqual(decoder.feed(Array("26;1$y".utf8)), [])
        XCTAssertEqual(decoder.takeReports(), [.mode(2026, state: 1)])
        // Malformed answers are dropped, not taken for keys.
        XCTAssertEqual(decoder.feed(Array("\u{1B}[?u\u{1B}[?;1$y\u{1B}[?2026$y".utf8)), [])
        XCTAssertEqual(decoder.takeReports(), [])
    }

    /// What the answers make of the capabilities: the keyboard protocol where its flags were
    /// reported; synchronized output where mode 2026 is known (set or reset), not where the
    /// terminal does not know it (0) or has it reset for good (4).
    func testCapabilitiesFollowTheAnswers() {
        var xterm = TerminalCapabilities()
        for report in [TerminalReport.mode(2026, state: 2), .deviceAttributes] { xterm.update(with: report) }
        XCTAssertEqual(xterm, TerminalCapabilities(keyboardProtocol: false, synchronizedOutput: true, answered: true))
        var kitty = TerminalCapabilities()
        for report in [TerminalReport.keyboardFlags(0), .mode(2026, state: 1), .deviceAttributes] { kitty.update(with: report) }
        XCTAssertEqual(kitty, TerminalCapabilities(keyboardProtocol: true, synchronizedOutput: true, answered: true))
        for state in [0, 4] {
            var old = TerminalCapabilities()
            for report in [TerminalReport.mode(2026, state: state), .deviceAttributes] { old.update(with: report) }
            XCTAssertEqual(old, TerminalCapabilities(keyboardProtocol: false, synchronizedOutput: false, answered: true))
        }
        XCTAssertEqual(String(decoding: TerminalCapabilities.query, as: UTF8.self), "\u{1B}[?u\u{1B}[?2026$p\u{1B}[c",
                       "the device attributes last: every terminal answers them, after the rest")
    }

    func testALoneEscapeWaitsForFlush() {
        var decoder = InputDecoder()
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertTrue(decoder.hasPending)
        XCTAssertEqual(decoder.flush(), [.key("esc")])
        XCTAssertEqual(decoder.feed([0x1B, 0x1B]), [.key("esc")])
        XCTAssertEqual(decoder.flush(), [.key("esc")])
    }

    func testSequencesSplitAcrossReadsAreJoined() {
        var decoder = InputDecoder()
        let bytes = Array("\u{1B}[1;5D漢".utf8)
        var events: [InputEvent] = []
        for byte in bytes { events += decoder.feed([byte]) }
        XCTAssertEqual(events, [.key("ctrl+left"), .key("漢")])
    }

    func testBracketedPasteIsOneEventWithNewlines() {
        var decoder = InputDecoder()
        let first = decoder.feed(Array("x\u{1B}[200~line one\r\nline\u{1B}[A two\u{1B}[2".utf8))
        let second = decoder.feed(Array("01~y".utf8))
        XCTAssertEqual(first, [.key("x")])
        XCTAssertEqual(second, [.paste("line one\nline\u{1B}[A two"), .key("y")])
    }

    func testSGRMouseClicksWheelAndDrag() {
        var decoder = InputDecoder()
        let events = decoder.feed(Array("\u{1B}[<0;10;5M\u{1B}[<0;10;5m\u{1B}[<64;3;4M\u{1B}[<65;3;4M\u{1B}[<32;11;5M\u{1B}[<16;1;1M".utf8))
        XCTAssertEqual(events, [
            .mouse(MouseEvent(kind: .press(button: 0), x: 9, y: 4)),
            .mouse(MouseEvent(kind: .release(button: 0), x: 9, y: 4)),
            .mouse(MouseEvent(kind: .scrollUp, x: 2, y: 3)),
            .mouse(MouseEvent(kind: .scrollDown, x: 2, y: 3)),
            .mouse(MouseEvent(kind: .drag(button: 0), x: 10, y: 4)),
            .mouse(MouseEvent(kind: .press(button: 0), x: 0, y: 0, modifiers: ["ctrl"])),
        ])
    }

    func testUnknownSequencesAreSkipped() {
        XCTAssertEqual(keys("\u{1B}[99~a\u{1B}[?1;2cb"), ["a", "b"])
    }

    /// A parameter is digits only (fuzzing found Int.min read by Int(_:) trapping in the
    /// modifier arithmetic): a signed or huge one counts as missing, the key still decodes.
    func testSignedOrHugeParametersAreNotNumbers() {
        XCTAssertEqual(keys("\u{1B}[1;-9223372036854775808Aa\u{1B}[1;99999999999D\u{1B}[-5;5u"), ["up", "a", "left"])
        var decoder = InputDecoder()
        XCTAssertEqual(decoder.feed(Array("\u{1B}[<0;-9223372036854775808;4M".utf8)), [], "a mouse report with a signed place is dropped")
    }

    func testAPasteSplitAcrossReadsWaitsForItsEnd() {
        var decoder = InputDecoder()
        XCTAssertEqual(decoder.feed(Array("\u{1B}[200~abc".utf8)), [])
        XCTAssertFalse(decoder.hasPending, "no Esc timeout while a paste is open")
        XCTAssertEqual(decoder.flush(), [], "a flush does not cut a paste")
        XCTAssertEqual(decoder.feed(Array("def\rghi\u{1B}[201~".utf8)), [.paste("abcdef\nghi")])
    }

    func testOtherMouseButtonsAndTheHorizontalWheelAreIgnored() {
        var decoder = InputDecoder()
        XCTAssertEqual(decoder.feed(Array("\u{1B}[<66;3;4M\u{1B}[<128;3;4M\u{1B}[<65;3;4M".utf8)),
                       [.mouse(MouseEvent(kind: .scrollDown, x: 2, y: 3))])
    }
}
