import HybridJSON
import XCTest

final class JSONValueMergingTests: XCTestCase {
    func testObjectsMergeDeeplyAndOtherValuesAreReplaced() throws {
        let base = try JSONParser.parse(#"{"user": {"name": "Ada", "age": 36}, "items": [1, 2], "count": 1}"#).plain
        let overlay = try JSONParser.parse(#"{"user": {"name": "Grace"}, "items": [3], "extra": true}"#).plain
        XCTAssertEqual(base.merging(overlay),
                       try JSONParser.parse(#"{"user": {"name": "Grace", "age": 36}, "items": [3], "count": 1, "extra": true}"#).plain)
    }
}
