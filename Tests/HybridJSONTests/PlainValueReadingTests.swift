import Foundation
@testable import HybridJSON
import XCTest

/// `PlainValueReading`: the C reader makes exactly the entries the Swift reader makes, or
/// leaves the value to it; it never reads a value otherwise, nor accepts what Swift refuses.
final class PlainValueReadingTests: XCTestCase {
    /// What the plain reader does with `text`: true read as Swift reads it, nil left to
    /// Swift, false read otherwise (always a failure).
    private func plain(_ text: String, deferring: Bool = false) -> Bool? {
        PlainValueReading.agreesWithSwiftReader(on: Array(text.utf8), deferringNodeLists: deferring)
    }

    func testReadsWhatScreensAreMadeOfAsSwiftDoes() {
        let values = [
            #"{"type":"text","spans":[{"text":"0:000","style":{"bold":true,"color":"cyan"}},{"text":" "}],"style":{"wrap":"none"}}"#,
            "[]", "{}", "[ ]", "{ }", " [ 1 , -2 , 0 , true , false , null ] ", "\"\"", "\"漢字テスト 🚀 é\"",
            "9223372036854775807", "-9223372036854775808", "-0", "[[[[[]]]]]",
            "{\n\t\"a\" :\r\n [ {\"b\" : { } } ] \n}",
            #"{"children":[{"type":"text","text":"x"}]}"#,
        ]
        for value in values {
            XCTAssertEqual(plain(value), true, value)
        }
    }

    func testLeavesToSwiftWhatItDoesNotRead() {
        // Escapes, fractions and exponents, integers past 64 bits, and every syntax error.
        let values = [
            #""a\"b""#, #""\u00e9""#, "1.5", "1e3", "1E3", "9223372036854775808", "-9223372036854775809",
            "01", "-", "-a", "+1", "tru", "nul", "falsy", "[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{1:2}",
            "[", "{\"a\":", "\"abc", "\"a\u{1}b\"", "\"a\nb\"", "'a'", "]",
        ]
        for value in values {
            XCTAssertNil(plain(value), value)
        }
        // What follows a complete value is the caller's to judge, as in Swift.
        XCTAssertEqual(plain("[1]]"), true)
        XCTAssertEqual(plain("{\"a\":1}}"), true)
    }

    func testLeavesInvalidUTF8ToSwiftByteForByte() {
        // Overlong, surrogates, past U+10FFFF, cut off, a lone continuation: all refused by
        // `skipUTF8Character`, so left to it; the edges of each range read.
        let refused: [[UInt8]] = [[0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x9F, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0x80, 0x80],
                                  [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0x80], [0xE2, 0x82], [0xE2, 0x28, 0xA1]]
        let accepted: [[UInt8]] = [[0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
                                   [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF]]
        for (inside, expected) in refused.map({ ($0, Bool?.none) }) + accepted.map({ ($0, Bool?.some(true)) }) {
            let bytes = [UInt8(ascii: "\"")] + inside + [UInt8(ascii: "\"")]
            XCTAssertEqual(PlainValueReading.agreesWithSwiftReader(on: bytes, deferringNodeLists: false), expected, "\(inside)")
        }
    }

    func testNestingUpToTheLimitReadsAndPastItIsLeftToSwift() {
        // The C reader's own bound (128 open containers) and the parser's (512 levels).
        XCTAssertEqual(plain(String(repeating: "[", count: 128) + String(repeating: "]", count: 128)), true)
        XCTAssertNil(plain(String(repeating: "[", count: 129) + String(repeating: "]", count: 129)))
        // Three levels read at depth 509 reach 512; at 510 they would pass it.
        let bytes = Array("[[[]]]".utf8)
        func reads(atDepth depth: Int) -> Bool {
            bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(bytes: buffer)
                return PlainValueReading.read(into: &reader, depth: depth)
            }
        }
        XCTAssertTrue(reads(atDepth: 509))
        XCTAssertFalse(reads(atDepth: 510))
    }

    func testANodeListIsLeftToSwiftWhenNodeListsAreDeferred() {
        let node = #"{"type":"column","children":[{"type":"text","text":"x"}]}"#
        XCTAssertEqual(plain(node), true)
        XCTAssertNil(plain(node, deferring: true))
        XCTAssertEqual(plain(#"{"type":"box","children":"x"}"#, deferring: true), true, "only an array is a node list")
    }

    func testAValueOfMoreEntriesThanTheFirstRoomReads() {
        let long = "[" + (0..<2_000).map(String.init).joined(separator: ",") + "]"
        XCTAssertEqual(plain(long), true)
    }

    /// Every value of every sample screen and fixture, read from where it starts.
    func testEveryValueOfTheSamplesReadsAsSwiftReadsIt() throws {
        let repository = DeferredNodeListTests.repository
        let folders = ["samples", "Tests/Fixtures"].map { repository.appendingPathComponent($0) }
        var files: [URL] = []
        for folder in folders {
            let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let url = walk?.nextObject() as? URL {
                if url.pathExtension == "json" { files.append(url) }
            }
        }
        XCTAssertGreaterThan(files.count, 20)
        var readPlainly = 0
        for file in files {
            let bytes = try Array(Data(contentsOf: file))
            guard let tape = try? JSONParser.parse(bytes).tape else { continue }
            for entry in tape.entries {
                switch PlainValueReading.agreesWithSwiftReader(on: bytes, at: entry.offset, deferringNodeLists: true) {
                case false?: XCTFail("\(file.lastPathComponent) at \(entry.offset): read otherwise than by Swift")
                case true?: readPlainly += 1
                case nil: break
                }
            }
        }
        XCTAssertGreaterThan(readPlainly, 10_000, "most values are read by the C reader")
    }

    /// A list line of the benchmark scene, with each byte in turn replaced by each of the
    /// bytes JSON gives a meaning to (and a few that break UTF-8).
    func testEveryOneByteChangeOfALineIsReadAsSwiftReadsItOrLeftToIt() {
        let line = Array(#"{"type":"text","spans":[{"text":"0:001","style":{"bold":true,"color":"cyan"}},{"text":" 漢字 -12"},{"n":[0,12,null]}],"style":{"wrap":"none"}}"#.utf8)
        let replacements = Array(#"{}[]",:\ -0123456789.eEtfnu"#.utf8) + [0x0A, 0x01, 0x80, 0xC3, 0xE6, 0xF0, 0xFF]
        var read = 0
        for position in line.indices {
            for byte in replacements where byte != line[position] {
                var changed = line
                changed[position] = byte
                for defers in [false, true] {
                    let agreed = PlainValueReading.agreesWithSwiftReader(on: changed, deferringNodeLists: defers)
                    XCTAssertNotEqual(agreed, false, "\(String(decoding: changed, as: UTF8.self)) deferring: \(defers)")
                    if agreed == true { read += 1 }
                }
            }
        }
        XCTAssertGreaterThan(read, 1_000)
    }
}
