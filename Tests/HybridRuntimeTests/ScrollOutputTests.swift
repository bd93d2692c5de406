import Foundation
import HybridCells
import HybridJSON
import HybridRuntime
import HybridTerminal
import TestSupport
import XCTest

/// Scrolling the peer scene (`samples/peer-scene.json`, its five boxes put in a `scroll` node,
/// 120×40) writes what the terminal needs and no more: the terminal moves the lines (DL/IL)
/// and only the row that comes into view is sent. Every frame is replayed on pyte, a VT
/// emulator the project did not write, and on `TerminalModel`, and must show exactly the
/// frame the app drew, styles included.
final class ScrollOutputTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let encoder = FrameEncoder(colors: .trueColor)

    /// The app on the scene, and its first frame.
    func openScene() throws -> (AppHarness, Buffer) {
        let scene = try String(contentsOf: Self.repository.appendingPathComponent("samples/peer-scene.json"), encoding: .utf8)
        var json = try JSONParser.parse(scene).plain
        let children = json.value(atPath: "body.children")?.arrayValue ?? []
        let scroll = JSONValue.object(JSONObject([("type", .string("scroll")), ("style", .object(JSONObject([("height", .string("fill"))]))),
                                                  ("children", .array(Array(children.dropFirst())))]))
        json.setValue(.array([children[0], scroll]), atPath: "body.children")
        let harness = try AppHarness(size: (120, 40))
        let first = try harness.render(screen: json.jsonText)
        XCTAssertEqual(harness.problems, [])
        return (harness, first)
    }

    /// The bytes from `previous` to the frame after `key`, checked on both emulators.
    func scroll(_ harness: AppHarness, from previous: Buffer, key: String, encoder: FrameEncoder? = nil,
                file: StaticString = #filePath, line: UInt = #line) throws -> (bytes: [UInt8], frame: Buffer) {
        let encoder = encoder ?? self.encoder
        harness.app.handle(.key(key))
        let next = harness.app.render()
        XCTAssertNotEqual(next, previous, "\(key) changed nothing", file: file, line: line)
        let chunks = [encoder.encode(from: nil, to: previous), encoder.encode(from: previous, to: next)]
        let shown = try PyteScreen.replay(chunks, width: 120, height: 40, repository: Self.repository)
        XCTAssertEqual(StyledFrame.text(of: shown), StyledFrame.text(of: PyteScreen.comparable(next)),
                       "pyte shows another frame after \(key)", file: file, line: line)
        var model = TerminalModel(width: 120, height: 40)
        chunks.forEach { model.feed($0) }
        XCTAssertEqual(StyledFrame.text(of: model.screen), StyledFrame.text(of: next), file: file, line: line)
        return (chunks[1], next)
    }

    func testAOneLineScrollMovesTheLinesAndSendsTheNewRow() throws {
        let (harness, first) = try openScene()
        let down = try scroll(harness, from: first, key: "down")
        let text = String(decoding: down.bytes, as: UTF8.self)
        // Rows 2–40 move up by one (the header stays), though the scroll view's ▲ and ▼ marks
        // on its first and last rows differ from the rows that move there: those two cells
        // and the new bottom row are written.
        XCTAssertTrue(text.hasPrefix("\u{1B}[2H\u{1B}[M"), text.debugDescription)
        XCTAssertLessThanOrEqual(down.bytes.count, 500, "ncurses sends 245 bytes here; the goal is at most twice that")
        let up = try scroll(harness, from: down.frame, key: "up")
        XCTAssertTrue(String(decoding: up.bytes, as: UTF8.self).hasPrefix("\u{1B}[2H\u{1B}[L"))
        XCTAssertLessThanOrEqual(up.bytes.count, 500)
        print("one-line scroll: \(down.bytes.count) bytes down, \(up.bytes.count) bytes up")
    }

    func testAPageScrollIsDrawnByTheCellDiff() throws {
        let (harness, first) = try openScene()
        let page = try scroll(harness, from: first, key: "pagedown")
        XCTAssertFalse(String(decoding: page.bytes, as: UTF8.self).contains("\u{1B}[M"), "no line survives a page: nothing to move")
    }

    func testWithoutLineMovesTheScrollRewritesTheRows() throws {
        let (harness, first) = try openScene()
        let plain = try scroll(harness, from: first, key: "down", encoder: FrameEncoder(colors: .trueColor, movesLines: false))
        XCTAssertFalse(String(decoding: plain.bytes, as: UTF8.self).contains("\u{1B}[M"))
        XCTAssertGreaterThan(plain.bytes.count, 2000)
    }
}
