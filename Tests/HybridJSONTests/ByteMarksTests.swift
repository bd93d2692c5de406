import CJSONScan
@testable import HybridJSON
import XCTest

/// `ByteMarks`: the 32-byte search finds what the byte-by-byte search finds, wherever in a
/// step a mark stands, at the ends of the text, and in random text.
final class ByteMarksTests: XCTestCase {
    private let marks = ByteMarks(singles: [UInt8(ascii: "@"), UInt8(ascii: "\\")],
                                  triples: [(UInt8(ascii: "\""), UInt8(ascii: "i"), UInt8(ascii: "d")),
                                            (UInt8(ascii: "\""), UInt8(ascii: "t"), UInt8(ascii: "y"))])

    /// Every mark found, by the vector search (through `ByteMarks`: the AVX2 search where the
    /// processor has it) and by the byte search; the 16-byte search of processors without AVX2
    /// is compared with the byte search here too.
    private func allFound(_ bytes: [UInt8]) -> (vector: [Int], bytes: [Int]) {
        bytes.withUnsafeBytes { text in
            var vector: [Int] = [], byBytes: [Int] = []
            var from = 0
            while let at = marks.first(in: text, from: from) { vector.append(at); from = at + 1 }
            var portable = HybridByteMarks()
            portable.singles = (UInt8(ascii: "@"), UInt8(ascii: "\\"), 0, 0)
            portable.singles_count = 2
            portable.triples = ((UInt8(ascii: "\""), UInt8(ascii: "i"), UInt8(ascii: "d")),
                                (UInt8(ascii: "\""), UInt8(ascii: "t"), UInt8(ascii: "y")), (0, 0, 0), (0, 0, 0))
            portable.triples_count = 2
            func all(_ search: (UnsafePointer<UInt8>, Int, Int, UnsafePointer<HybridByteMarks>) -> Int) -> [Int] {
                var found: [Int] = []
                var from = 0
                while from < text.count {
                    let at = search(text.baseAddress!.assumingMemoryBound(to: UInt8.self), text.count, from, &portable)
                    if at < 0 { break }
                    found.append(at)
                    from = at + 1
                }
                return found
            }
            byBytes = text.isEmpty ? [] : all(hybrid_find_marks_portable)
            XCTAssertEqual(text.isEmpty ? [] : all(hybrid_find_marks_sse2), byBytes, "the 16-byte search")
            return (vector, byBytes)
        }
    }

    func testEachMarkIsFoundWhereverItStandsInAStep() {
        for word in ["@", "\\", "\"id", "\"ty"] {
            for length in 1..<100 {
                for position in 0...(max(0, length - word.utf8.count)) where position + word.utf8.count <= length {
                    var bytes = Array(repeating: UInt8(ascii: "x"), count: length)
                    bytes.replaceSubrange(position..<position + word.utf8.count, with: Array(word.utf8))
                    let found = allFound(bytes)
                    XCTAssertEqual(found.vector, [position], "\(word) at \(position) of \(length)")
                    XCTAssertEqual(found.vector, found.bytes)
                }
            }
        }
    }

    func testASequenceCutByTheEndIsNoMark() {
        XCTAssertEqual(allFound(Array("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"i".utf8)).vector, [])
        XCTAssertEqual(allFound(Array("\"t".utf8)).vector, [])
        XCTAssertEqual(allFound([]).vector, [])
    }

    func testMarksNextToEachOtherAreEachFound() {
        let text = Array("\"id\"\"type\"@@\\\\\"tyx\"i d\"xid".utf8)
        XCTAssertEqual(allFound(text).vector, [0, 4, 10, 11, 12, 13, 14])
    }

    /// Sequences that do not all start with one byte take the search's general path (those
    /// above share their quote, compared once).
    func testSequencesStartingWithDifferentBytesAreFoundAsByteByByte() {
        let triples: [(UInt8, UInt8, UInt8)] = [(UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "c")),
                                                (UInt8(ascii: "\""), UInt8(ascii: "i"), UInt8(ascii: "d")),
                                                (UInt8(ascii: "b"), UInt8(ascii: "c"), UInt8(ascii: "a"))]
        let marks = ByteMarks(singles: [UInt8(ascii: "@")], triples: triples)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abc\"id@x".utf8)
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            var found: [Int] = []
            bytes.withUnsafeBytes { text in
                var from = 0
                while let at = marks.first(in: text, from: from) { found.append(at); from = at + 1 }
            }
            let expected = bytes.indices.filter { at in
                bytes[at] == UInt8(ascii: "@") || triples.contains { at + 2 < bytes.count && bytes[at] == $0.0 && bytes[at + 1] == $0.1 && bytes[at + 2] == $0.2 }
            }
            XCTAssertEqual(found, expected, String(decoding: bytes, as: UTF8.self))
            // The 16-byte search of processors without AVX2 takes the same general path.
            var sse2: [Int] = []
            var portable = HybridByteMarks()
            portable.singles = (UInt8(ascii: "@"), 0, 0, 0)
            portable.singles_count = 1
            portable.triples = (triples[0], triples[1], triples[2], (0, 0, 0))
            portable.triples_count = 3
            bytes.withUnsafeBufferPointer { text in
                var from = 0
                while from < text.count, let base = text.baseAddress {
                    let at = hybrid_find_marks_sse2(base, text.count, from, &portable)
                    if at < 0 { break }
                    sse2.append(at)
                    from = at + 1
                }
            }
            XCTAssertEqual(sse2, expected, "the 16-byte search")
        }
    }

    func testRandomTextIsSearchedAsByteByByte() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("\"idty@\\x {}".utf8)
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let found = allFound(bytes)
            XCTAssertEqual(found.vector, found.bytes, String(decoding: bytes, as: UTF8.self))
        }
    }
}
