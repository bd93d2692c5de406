import HybridDocument
import HybridJSON
@testable import HybridWidgets
import XCTest

/// `SpanStyles`: a style is found again by its source text wherever that text is written, and
/// only by it, however many there are.
final class SpanStylesTests: XCTestCase {
    /// The items of a JSON array, each a style object.
    private func values(_ text: String) throws -> [SourceJSON] {
        try Array(XCTUnwrap(JSONParser.parse(text).items))
    }

    func testAStyleIsFoundByItsTextWhereverItIsWritten() throws {
        let styles = try values(#"[{"bold":true}, {"italic":true}, {"bold":true}, {"bold": true}]"#)
        var table = SpanStyles()
        XCTAssertNil(table.style(for: styles[0]), "nothing before the first")
        var bold = TextStyle()
        bold.bold = true
        table.insert(bold, for: styles[0])
        XCTAssertEqual(table.style(for: styles[0]), bold)
        XCTAssertEqual(table.style(for: styles[2]), bold, "the same text elsewhere")
        XCTAssertNil(table.style(for: styles[1]), "another text")
        XCTAssertNil(table.style(for: styles[3]), "the same style written otherwise is decoded again")
    }

    func testManyStylesAreAllKeptAcrossGrowth() throws {
        let count = 1_000
        let styles = try values("[" + (0..<count).map { "{\"color\":\"#" + String(format: "%06x", $0) + "\"}" }.joined(separator: ",") + "]")
        var table = SpanStyles()
        for (index, json) in styles.enumerated() {
            var style = TextStyle()
            style.color = .rgb(UInt8(index & 0xFF), UInt8(index >> 8), 0)
            table.insert(style, for: json)
        }
        for (index, json) in styles.enumerated() {
            XCTAssertEqual(table.style(for: json)?.color, .rgb(UInt8(index & 0xFF), UInt8(index >> 8), 0), "style \(index)")
        }
        // A second insert of a text known already keeps the first style.
        table.insert(TextStyle(), for: styles[7])
        XCTAssertEqual(table.style(for: styles[7])?.color, .rgb(7, 0, 0))
    }
}
