@testable import HybridJSON
import XCTest

/// The one-walk readers of an object's members agree with the general ones:
/// `Members.areAllNamed(in:)` with `unexpected(allowing:)`, `SourceJSON.values(ofOnly:_:)`
/// with lookups by key.
final class MemberWalkTests: XCTestCase {
    private let objects = [
        #"{}"#, #"{"a": 1}"#, #"{"a": 1, "b": [2, {"c": 3}], "c": null}"#, #"{"a": 1, "a": 2}"#, #"{"a": 1, "d": 2}"#,
        #"{"\u0061": 1, "b": 2}"#, #"{"b": 1, "\u0062": 2}"#, #"{"": 1}"#, #"{"ab": 1}"#,
        "{" + (0..<17).map { #""a\#($0)": 1"# }.joined(separator: ",") + "}",
    ]

    func testAreAllNamedIsWhatTheFieldCheckFindsNothingIn() throws {
        let names = ["a", "b", "c"] + (0..<17).map { "a\($0)" }
        for text in objects {
            let members = try XCTUnwrap(JSONParser.parse(text).members)
            let clean = members.unexpected(allowing: names).isEmpty
            XCTAssertEqual(members.areAllNamed(in: FieldNames(names)), clean && members.count <= 16, text)
        }
        XCTAssertFalse(try XCTUnwrap(JSONParser.parse(#"{"": 1}"#).members).areAllNamed(in: FieldNames(["a"])))
        XCTAssertTrue(try XCTUnwrap(JSONParser.parse(#"{"": 1}"#).members).areAllNamed(in: FieldNames([""])), "an empty name")
    }

    func testValuesOfOnlyTwoNamesAreTheLookupsWhenNothingElseIsThere() throws {
        for text in objects + [#"{"text": "x"}"#, #"{"style": {"bold": true}, "text": "y"}"#, #"{"text": 1, "text": 2}"#,
                               #"{"text": "x", "other": 1}"#, #"{"te\u0078t": "x"}"#] {
            let json = try JSONParser.parse(text)
            let keys = json.members!.map(\.key)
            let onlyThose = keys.allSatisfy { $0 == "text" || $0 == "style" } && Set(keys).count == keys.count
            let escaped = text.contains("\\u")
            let values = json.values(ofOnly: "text", "style")
            if onlyThose && !escaped {
                XCTAssertEqual(values?.0?.offset, json["text"]?.offset, text)
                XCTAssertEqual(values?.1?.offset, json["style"]?.offset, text)
                XCTAssertNotNil(values, text)
            } else {
                XCTAssertNil(values, "\(text): left to the general path")
            }
        }
        XCTAssertNil(try JSONParser.parse("[1]").values(ofOnly: "text", "style"))
    }
}
