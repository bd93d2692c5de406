import HybridJSON
import XCTest

final class JSONParserTests: XCTestCase {
    func testParsesEveryKindKeepingIntegersApartFromNumbers() throws {
        let json = try JSONParser.parse(#"{"a": 1, "b": 1.0, "c": -2e3, "d": "x", "e": [true, false, null], "f": {}}"#)
        XCTAssertEqual(json.plain, .object(JSONObject([
            ("a", .integer(1)), ("b", .number(1.0)), ("c", .number(-2000)), ("d", .string("x")),
            ("e", .array([.bool(true), .bool(false), .null])), ("f", .object(JSONObject())),
        ])))
    }

    func testKeepsMemberOrderAndOffsets() throws {
        let json = try JSONParser.parse("{\"z\": 1,\n \"a\": [10, 20]}")
        XCTAssertEqual(json.members?.map(\.key), ["z", "a"])
        XCTAssertEqual(json.members?.map(\.keyOffset), [1, 10])
        XCTAssertEqual(json["a"]?.items?.map(\.offset), [16, 20])
    }

    func testComparesKeysAsDecodedStrings() throws {
        let json = try JSONParser.parse(#"{"a\u0062": 1, "ab": 2, "c": 3}"#)
        XCTAssertEqual(json["ab"]?.integerValue, 1)
        let unexpected = json.members!.unexpected(allowing: ["ab"])
        XCTAssertEqual(unexpected.map(\.member.key), ["ab", "c"])
        XCTAssertEqual(unexpected.map(\.member.keyOffset), [15, 24])
        XCTAssertEqual(unexpected.map(\.isDuplicate), [true, false])
    }

    func testKnowsTheSourceTextOfEveryValue() throws {
        let text = #"{"a": [1, -2.5e3, "x\"y", true, false, null, { }, [ [] , {"b" : {}} ] ] , "c":0}"#
        let json = try JSONParser.parse(text)
        func source(_ value: SourceJSON) -> String { String(decoding: value.source, as: UTF8.self) }
        XCTAssertEqual(source(json), text)
        XCTAssertEqual(json["a"]?.items?.map(source),
                       ["1", "-2.5e3", #""x\"y""#, "true", "false", "null", "{ }", #"[ [] , {"b" : {}} ]"#])
        XCTAssertEqual(json["c"].map(source), "0")
    }

    func testReadsIntegersThatDoNotFitAsNumbers() throws {
        let json = try JSONParser.parse("[9223372036854775807, -9223372036854775808, 9223372036854775808, 0.5, -0]")
        XCTAssertEqual(json.items?.map(\.integerValue), [Int.max, Int.min, nil, nil, 0])
        XCTAssertEqual(json.items?.map(\.numberValue), [nil, nil, 9223372036854775808, 0.5, nil])
    }

    func testDecodesEscapesAndSurrogatePairs() throws {
        let json = try JSONParser.parse(#""tab\t quote\" slash\/ \u00e9 \ud83d\ude80 漢字""#)
        XCTAssertEqual(json.stringValue, "tab\t quote\" slash/ é 🚀 漢字")
    }

    func testReportsSyntaxErrorsWithTheirOffsets() {
        let cases: [(String, Int, String)] = [
            ("[1, 2,]", 6, "trailing comma before ']'"),
            ("{\"a\": 1,}", 8, "trailing comma before '}'"),
            ("{\"a\" 1}", 5, "unexpected '1', expected ':' after member name \"a\""),
            ("\"open", 0, "unterminated string"),
            ("[01]", 2, "invalid number: leading zero"),
            ("{} x", 3, "unexpected 'x' after the end of the document"),
            ("", 0, "unexpected end of input, expected a value"),
            ("\"\\ud800\"", 7, "lone surrogate in \\u escape"),
            ("nul", 0, "unexpected 'n', expected a value"),
        ]
        for (text, offset, message) in cases {
            XCTAssertThrowsError(try JSONParser.parse(text), text) { error in
                XCTAssertEqual(error as? JSONSyntaxError, JSONSyntaxError(offset: offset, message: message), text)
            }
        }
    }

    /// Strings are passed 16 bytes at a step: whatever ends a plain run (a quote, an escape,
    /// a control byte, a multi-byte character, the end of input) is found at every position
    /// of a step.
    func testStringsEndWhereverTheirRunStops() throws {
        for length in 0..<40 {
            let plain = String(repeating: "a", count: length)
            XCTAssertEqual(try JSONParser.parse("[\"\(plain)\", 1]").items?.first?.stringValue, plain)
            XCTAssertEqual(try JSONParser.parse("\"\(plain)\\n\(plain)\"").stringValue, plain + "\n" + plain)
            XCTAssertEqual(try JSONParser.parse("\"\(plain)é漢🚀\(plain)\"").stringValue, plain + "é漢🚀" + plain)
            XCTAssertThrowsError(try JSONParser.parse("\"\(plain)\u{01}\"")) { error in
                XCTAssertEqual(error as? JSONSyntaxError, JSONSyntaxError(offset: length + 1, message: "control character in a string; escape it"))
            }
            XCTAssertThrowsError(try JSONParser.parse(Array("\"\(plain)".utf8) + [0xE9, 0x22])) { error in
                XCTAssertEqual((error as? JSONSyntaxError)?.offset, length + 1)
            }
            XCTAssertThrowsError(try JSONParser.parse("\"\(plain)")) { error in
                XCTAssertEqual(error as? JSONSyntaxError, JSONSyntaxError(offset: 0, message: "unterminated string"))
            }
        }
    }

    func testRejectsNestingTooDeepInsteadOfOverflowingTheStack() {
        let deep = String(repeating: "[", count: 100_000)
        XCTAssertThrowsError(try JSONParser.parse(deep)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.message, "nesting deeper than 512 levels")
        }
    }

    func testLocationsCountCharactersNotBytes() {
        let source = SourceText(name: "s.json", text: "{\n  \"漢字\": x")
        let offset = Array("{\n  \"漢字\": ".utf8).count
        XCTAssertEqual(source.describe(offset), "s.json:2:9")
    }
}

final class JSONValueTests: XCTestCase {
    func testPathsReadAndWriteThroughObjectsAndArrays() {
        var value = JSONValue.object(JSONObject([("items", .array([.object(JSONObject([("title", .string("a"))]))]))]))
        XCTAssertEqual(value.value(atPath: "items.0.title"), .string("a"))
        XCTAssertNil(value.value(atPath: "items.1.title"))
        XCTAssertTrue(value.setValue(.integer(3), atPath: "user.count"))
        XCTAssertEqual(value.value(atPath: "user.count"), .integer(3))
        XCTAssertTrue(value.setValue(.string("b"), atPath: "items.0.title"))
        XCTAssertEqual(value.value(atPath: "items.0.title"), .string("b"))
        XCTAssertFalse(value.setValue(.null, atPath: "items.0.title.deeper"))
    }

    func testSerializesToCompactJSON() throws {
        let text = #"{"b":[1,2.5,"x\n\"y\""],"a":{"c":null,"d":true}}"#
        XCTAssertEqual(try JSONParser.parse(text).plain.jsonText, text)
    }

    func testObjectEqualityIgnoresOrder() {
        XCTAssertEqual(JSONObject([("a", .integer(1)), ("b", .integer(2))]), JSONObject([("b", .integer(2)), ("a", .integer(1))]))
    }
}
