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
