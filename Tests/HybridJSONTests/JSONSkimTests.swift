import CJSONScan
@testable import HybridJSON
import TestSupport
import XCTest

/// `JSONSkim`: the 64-byte scan finds the end the byte-by-byte skim finds, and the same
/// `children` lists, or leaves the input to it; the vector masks are the bytes' masks.
final class JSONSkimTests: XCTestCase {
    /// What both skims say of the value at `start`: the end (or the byte skim's error) and
    /// the lists noted, and whether the scan could say.
    private func skims(_ text: String, at start: Int = 0, depth: Int = 2,
                       file: StaticString = #filePath, line: UInt = #line) -> (scanned: Bool, end: Int?) {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var scannedLists: [Int: Int] = [:], byteLists: [Int: Int] = [:]
            let scanned = JSONSkim.scannedEnd(ofValueAt: start, in: buffer, depth: depth, notingListsIn: &scannedLists)
            let byBytes = Result { () throws(JSONSyntaxError) in
                try JSONSkim.endByBytes(ofValueAt: start, in: buffer, depth: depth, notingListsIn: &byteLists)
            }
            if let scanned {
                XCTAssertEqual(scanned, try? byBytes.get(), "end of \(text.prefix(120))", file: file, line: line)
                XCTAssertEqual(scannedLists, byteLists, "lists in \(text.prefix(120))", file: file, line: line)
            } else {
                XCTAssertTrue(scannedLists.isEmpty, file: file, line: line)
            }
            return (scanned != nil, try? byBytes.get())
        }
    }

    func testValidNodeListsAreScannedToTheSameEndAndLists() {
        let line = #"{"type": "text", "spans": [{"text": "a \"q\" [x] {y} \\", "style": {"bold": true}}, {"text": "漢字 🚀"}]}"#
        let column = #"{"type": "column", "children": [\#(Array(repeating: line, count: 30).joined(separator: ", "))]}"#
        let screen = #"[\#(column), {"type": "box", "child": \#(column)}, {"type": "row", "children": [\#(column),\#n\#t \#(column)]}]  trailing"#
        let result = skims(screen)
        XCTAssertTrue(result.scanned)
        XCTAssertEqual(result.end, screen.utf8.count - "  trailing".utf8.count)
        // Five lists noted (four columns and the row), by where their `[` is.
        var lists: [Int: Int] = [:]
        _ = Array(screen.utf8).withUnsafeBufferPointer { JSONSkim.scannedEnd(ofValueAt: 0, in: $0, depth: 2, notingListsIn: &lists) }
        XCTAssertEqual(lists.count, 5)
    }

    /// Escapes, quotes and brackets on each side of a 64-byte step, so every carry between
    /// steps is crossed: a string open across the step, an escaping backslash as its last byte,
    /// an escaped backslash before a quote.
    func testEveryCarryAcrossA64ByteStep() {
        let pieces = [#"\""#, #"\\"#, #"\\\""#, "[", "]", "{", "}", "\"children\": [", #"\u0022"#, "é"]
        var scannedCount = 0
        for padding in 0..<70 {
            for piece in pieces {
                let text = #"[{"children": ["# + String(repeating: "x", count: padding).quotedJSON + #", "\#(piece) \#(piece)"]}, ["# + #""\#(piece)""# + "]]"
                let result = skims(text)
                XCTAssertNotNil(result.end, text)
                if result.scanned { scannedCount += 1 }
            }
        }
        XCTAssertEqual(scannedCount, 70 * pieces.count, "all of these are JSON strings: the scan says")
    }

    /// Errors and what is not JSON are left to the byte skim, which names them.
    func testWhatTheScanCannotSayIsLeftToTheByteSkim() {
        for text in [#"[1, "open"#, "[[[", #"[\"a"]"#, #"[1, \ 2]"#, #"["ends on a backslash \"#] {
            XCTAssertFalse(skims(text).scanned, text)
        }
        let deep = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        XCTAssertFalse(skims(deep).scanned)
        XCTAssertNil(skims(deep).end, "too deep below two levels")
        XCTAssertTrue(skims(deep, depth: 0).scanned)
        // Objects alone, which blocks without a `[` count rather than walk.
        let objects = JSONParser.maximumDepth - 1
        let deepObjects = "[" + String(repeating: #"{"a":"#, count: objects) + "1" + String(repeating: "}", count: objects) + "]"
        XCTAssertFalse(skims(deepObjects).scanned)
        XCTAssertNil(skims(deepObjects).end, "too deep below two levels")
        XCTAssertTrue(skims(deepObjects, depth: 0).scanned)
        XCTAssertFalse(skims(deepObjects, depth: 1).scanned, "one level past the limit")
    }

    /// A `children` list whose `]`, or the value's last bracket, falls in a block without a
    /// `[`, at every offset of the block: found where the byte skim finds it.
    func testListsAndValuesEndingInBlocksWithoutSquareBrackets() {
        let long = String(repeating: "y", count: 100).quotedJSON
        for padding in 0..<140 {
            let pad = String(repeating: "x", count: padding).quotedJSON
            // The second: the list's `]` alone may end a block, the value going on after it.
            for text in [#"[{"children": [{"a": {"b": "# + pad + #"}}, {"c": {}}]}, {"d": {"e": {}}}]"#,
                         #"[{"children": [{"a": "# + pad + #"}]}, {"d": "# + long + "}]"] {
                let result = skims(text)
                XCTAssertTrue(result.scanned, text)
                XCTAssertEqual(result.end, text.utf8.count, text)
            }
        }
    }

    /// More lists than the first room holds: scanned again with more.
    func testManyListsAreAllNoted() {
        let item = #"{"type": "column", "children": [{"type": "text", "text": "x"}]}"#
        let text = "[" + Array(repeating: item, count: 700).joined(separator: ",") + "]"
        var lists: [Int: Int] = [:]
        let end = Array(text.utf8).withUnsafeBufferPointer { JSONSkim.scannedEnd(ofValueAt: 0, in: $0, depth: 2, notingListsIn: &lists) }
        XCTAssertEqual(end, text.utf8.count)
        XCTAssertEqual(lists.count, 700)
        XCTAssertTrue(skims(text).scanned)
    }

    /// Random text over the bytes that matter: where the scan says, it says what the byte
    /// skim says.
    func testRandomTextAgreesWithTheByteSkim() {
        var generator = SeededRandom(seed: 16)
        let alphabet = Array(#"""\\[]{}:, a"children"\#n"#.unicodeScalars).map(String.init) + ["\"children\": [", "漢"]
        var scanned = 0
        for _ in 0..<3000 {
            let length = generator.next(300)
            let text = "[" + (0..<length).map { _ in alphabet[generator.next(alphabet.count)] }.joined()
            if skims(text).scanned { scanned += 1 }
        }
        XCTAssertGreaterThan(scanned, 100, "enough random texts close their first bracket to compare")
    }

    func testVectorMasksAreTheBytesMasks() {
        var generator = SeededRandom(seed: 7)
        let interesting: [UInt8] = Array(#""\[]{};:, azZ{|}"#.utf8) + [0, 0x5B | 0x80, 0xDB, 0xFB, 0xFD, 0x7F]
        for _ in 0..<2000 {
            let block = (0..<64).map { _ in
                generator.next() % 2 == 0 ? interesting[generator.next(interesting.count)] : UInt8(truncatingIfNeeded: generator.next())
            }
            var vector = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0)), narrow = vector, bytes = vector
            hybrid_json_block_masks(block, &vector.0, &vector.1, &vector.2, &vector.3, &vector.4)
            hybrid_json_block_masks_sse2(block, &narrow.0, &narrow.1, &narrow.2, &narrow.3, &narrow.4)
            hybrid_json_block_masks_portable(block, &bytes.0, &bytes.1, &bytes.2, &bytes.3, &bytes.4)
            XCTAssertTrue(vector == bytes, "\(block)")
            XCTAssertTrue(narrow == bytes, "\(block)")
        }
    }
}

private extension String {
    var quotedJSON: String { "\"" + self + "\"" }
}
