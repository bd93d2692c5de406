@testable import HybridJSON
import XCTest

/// `JSONPath.description`: how each kind of key reads in a message.
final class JSONPathTests: XCTestCase {
    private func text(_ segments: [JSONPath.Segment]) -> String {
        var path = JSONPath()
        segments.forEach { path.push($0) }
        return path.description
    }

    func testNamesReadAsThemselvesAndOtherKeysInBrackets() {
        XCTAssertEqual(text([]), "$")
        XCTAssertEqual(text([.key("body"), .key("children"), .index(2), .key("$schema"), .key("a_1")]), "$.body.children[2].$schema.a_1")
        XCTAssertEqual(text([.key("größe"), .key("漢字")]), "$.größe.漢字", "letters of any script")
        XCTAssertEqual(text([.key("main.js")]), #"$["main.js"]"#)
        XCTAssertEqual(text([.key("")]), #"$[""]"#)
        XCTAssertEqual(text([.key(#"say "hi"\"#)]), #"$["say \"hi\"\\"]"#)
        let long = String(repeating: "k", count: DiagnosticText.echoLimit)
        XCTAssertEqual(text([.key(long)]), "$." + long, "a name as long as a message echoes")
        XCTAssertEqual(text([.key(long + "k")]), #"$[""# + String(repeating: "k", count: DiagnosticText.echoLimit - 1) + #"…"]"#, "one longer is cut")
    }
}
