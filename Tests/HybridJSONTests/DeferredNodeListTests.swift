import Foundation
import HybridJSON
import XCTest

/// `JSONParser.parse(_:deferringNodeLists:)` skims past large node lists and parses them when
/// first read: what is read is what a whole parse reads, offsets included, and a syntax error
/// inside is found when the list is read, at its place.
final class DeferredNodeListTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A screen whose body is a column of `lines` texts, each `line` (a JSON node) by default.
    func screen(lines: Int = 200, line: (Int) -> String = { #"{"type": "text", "text": "line \#($0) \"quoted\" [x] {y}"}"# }) -> String {
        #"{"format": 1, "body": {"type": "column", "children": [\#((0..<lines).map(line).joined(separator: ",\n"))]}}"#
    }

    func testALargeNodeListIsKeptUnparsedUntilRead() throws {
        let json = try JSONParser.parse(Array(screen().utf8), deferringNodeLists: true)
        let children = try XCTUnwrap(json["body"]?["children"])
        XCTAssertTrue(children.isUnparsed)
        XCTAssertEqual(children.kind, .array)
        XCTAssertEqual(children.items?.count, 200)
        XCTAssertEqual(children.items?.first?["text"]?.stringValue, #"line 0 "quoted" [x] {y}"#)
        XCTAssertNil(children.syntaxError)
        // Small lists, lists of objects that are no nodes, and the top levels are parsed.
        XCTAssertFalse(try XCTUnwrap(JSONParser.parse(Array(screen(lines: 3).utf8), deferringNodeLists: true)["body"]?["children"]).isUnparsed)
        let notNodes = #"{"a": {"b": {"children": [\#(String(repeating: #""xxxxxxxxxx", "#, count: 500))"y"]}}}"#
        XCTAssertFalse(try XCTUnwrap(JSONParser.parse(Array(notNodes.utf8), deferringNodeLists: true)["a"]?["b"]?["children"]).isUnparsed)
    }

    func testWhatIsReadIsWhatAWholeParseReads() throws {
        for name in ["peer-scene.json", "dashboard.json", "list.json"] {
            let bytes = try Array(Data(contentsOf: Self.repository.appendingPathComponent("samples/" + name)))
            let whole = try JSONParser.parse(bytes), deferred = try JSONParser.parse(bytes, deferringNodeLists: true)
            XCTAssertEqual(deferred.plain, whole.plain, name)
            XCTAssertEqual(offsets(deferred), offsets(whole), name)
            XCTAssertEqual(deferred.syntaxErrorsFoundLater, [])
        }
    }

    /// Every value's offset and source text, in document order.
    func offsets(_ json: SourceJSON) -> [String] {
        var found = ["\(json.offset) \(String(decoding: json.source, as: UTF8.self).prefix(20))"]
        if let items = json.items { found += items.flatMap(offsets) }
        if let members = json.members { found += members.flatMap { ["\($0.keyOffset) \($0.key)"] + offsets($0.value) } }
        return found
    }

    func testASyntaxErrorInsideIsFoundWhenRead() throws {
        // 01 is no JSON number: a whole parse stops there; the skim passes it.
        let text = screen { $0 == 150 ? #"{"type": "text", "text": "x", "size": 01}"# : #"{"type": "text", "text": "line \#($0)"}"# }
        let wholeError = try XCTUnwrap(syntaxError(text, deferring: false))
        let json = try JSONParser.parse(Array(text.utf8), deferringNodeLists: true)
        let children = try XCTUnwrap(json["body"]?["children"])
        XCTAssertEqual(json.syntaxErrorsFoundLater, [], "not read yet")
        XCTAssertEqual(children.syntaxError, wholeError)
        XCTAssertNil(children.items)
        XCTAssertEqual(json.syntaxErrorsFoundLater, [wholeError])
    }

    /// Every item an `ArrayReader` reads of the body's children, and the error that stopped it.
    func readItems(_ text: String) throws -> (items: [String], count: Int, error: JSONSyntaxError?, parsedLater: [JSONSyntaxError]) {
        let json = try JSONParser.parse(Array(text.utf8), deferringNodeLists: true)
        let children = try XCTUnwrap(json["body"]?["children"])
        XCTAssertTrue(children.isUnparsed, "read item by item only when skimmed")
        var reader = try XCTUnwrap(ArrayReader(children))
        var items: [String] = []
        var count = 0
        while let item = reader.item(at: count) {
            items += offsets(item)
            count += 1
        }
        XCTAssertTrue(reader.isComplete)
        return (items, count, reader.syntaxError, json.syntaxErrorsFoundLater)
    }

    func testAReaderReadsItemByItemWhatAWholeParseReads() throws {
        for spacing in ["", " ", "\n\t "] {
            let text = screen(lines: 150).replacingOccurrences(of: ",\n", with: spacing + "," + spacing)
                .replacingOccurrences(of: "\"children\": [", with: "\"children\": [" + spacing).replacingOccurrences(of: "]}}", with: spacing + "]}}")
            let whole = try JSONParser.parse(Array(text.utf8))
            let read = try readItems(text)
            XCTAssertEqual(read.items, try XCTUnwrap(whole["body"]?["children"]?.items).flatMap(offsets), "spacing \(spacing.debugDescription)")
            XCTAssertNil(read.error)
            XCTAssertEqual(read.parsedLater, [], "read apart from the tape's whole-list parse")
        }
        // Only what is asked for is parsed: an item past the one asked for may be broken.
        let broken = screen(lines: 150) { $0 == 120 ? #"{"type": "text", "text": 01}"# : #"{"type": "text", "text": "line \#($0)"}"# }
        var reader = try XCTUnwrap(ArrayReader(try XCTUnwrap(JSONParser.parse(Array(broken.utf8), deferringNodeLists: true)["body"]?["children"])))
        XCTAssertEqual(reader.item(at: 40)?["text"]?.stringValue, "line 40")
        XCTAssertNil(reader.syntaxError)
        XCTAssertFalse(reader.isComplete)
    }

    func testAReaderStopsAtTheErrorAWholeParseStopsAt() throws {
        let line = { (index: Int) in #"{"type": "text", "text": "line \#(index)"}"# }
        // Each broken text, and how many items come before the break.
        let cases = [
            (screen(lines: 150) { $0 == 120 ? #"{"type": "text", "text": 01}"# : line($0) }, 120),
            (screen(lines: 150) { $0 == 149 ? line($0) + "," : line($0) }, 150),
            (screen(lines: 150) { $0 == 70 ? line($0) + " x" : line($0) }, 70),
            (screen(lines: 150) { $0 == 0 ? "nul" : line($0) }, 0),
        ]
        for (text, before) in cases {
            let wholeError = try XCTUnwrap(syntaxError(text, deferring: false))
            let read = try readItems(text)
            XCTAssertEqual(read.error, wholeError)
            XCTAssertEqual(read.count, before, "the reading stops at the break")
        }
        // A list the parser skimmed past may hold no item (only its length counted); one
        // that ends in a comma breaks where a whole parse breaks.
        let blank = #"{"format": 1, "body": {"type": "column", "children": [\#(String(repeating: " ", count: 5000))]}}"#
        let empty = try readItems(blank)
        XCTAssertEqual(empty.count, 0)
        XCTAssertNil(empty.error)
        let trailing = blank.replacingOccurrences(of: "[ ", with: "[{\"type\": \"text\", \"text\": \"x\"}, ")
        XCTAssertEqual(try readItems(trailing).error, try XCTUnwrap(syntaxError(trailing, deferring: false)))
        XCTAssertEqual(try readItems(trailing).count, 1)
        // A list of one item is read as one.
        let one = #"{"format": 1, "body": {"type": "column", "children": [{"type": "text", "text": "\#(String(repeating: "x", count: 5000))"}]}}"#
        XCTAssertEqual(try readItems(one).items.count, try XCTUnwrap(JSONParser.parse(one)["body"]?["children"]?.items).flatMap(offsets).count)
    }

    func testWhatTheSkimSeesIsFoundAtOnce() {
        let unterminated = screen(lines: 300) + String(repeating: " ", count: 10)
        let cut = String(unterminated.prefix(unterminated.count / 2))
        for text in [cut, screen(lines: 300) { $0 == 299 ? #"{"type": "text", "text": "x"#: #"{"type": "text", "text": "line \#($0)"}"# }] {
            let whole = syntaxError(text, deferring: false)
            let deferred = syntaxError(text, deferring: true)
            XCTAssertNotNil(whole)
            XCTAssertNotNil(deferred, "an unterminated list or string stops the parse")
        }
        let deep = #"{"format": 1, "body": {"type": "column", "children": ["# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "]}}"
        XCTAssertEqual(syntaxError(deep, deferring: true)?.message,
                       "nesting deeper than \(JSONParser.maximumDepth) levels")
    }

    /// The syntax error the parse of `text` throws, if any.
    func syntaxError(_ text: String, deferring: Bool) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(Array(text.utf8), deferringNodeLists: deferring)
            return nil
        } catch {
            return error
        }
    }
}
