import HybridJSON
@testable import HybridRuntime
import HybridWidgets
import XCTest

/// Where a screen's data blocks stand (SPEC §7.4): only the latest load's answer counts, a
/// failed load keeps the data shown before, and the next page follows the last answer.
final class ScreenDataTests: XCTestCase {
    let block = DataBlock(name: "items", source: .api(name: "items.list", reformer: "rows"), params: .constant(.object(JSONObject())))

    func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)).plain }

    func testOnlyTheLatestLoadCountsAndAFailureKeepsTheData() throws {
        let data = ScreenData(blocks: [block])
        XCTAssertTrue(data.needsLoad(block, params: try json(#"{"q": "a"}"#)))
        let first = try XCTUnwrap(data.begin(block, params: try json(#"{"q": "a"}"#), nextPage: false))
        XCTAssertEqual(first.request, try json(#"{"params": {"q": "a"}, "api": "items.list", "reformer": "rows"}"#))
        XCTAssertFalse(data.needsLoad(block, params: try json(#"{"q": "a"}"#)))
        let second = try XCTUnwrap(data.begin(block, params: try json(#"{"q": "ab"}"#), nextPage: false))
        XCTAssertNil(data.settle(first, reply: try json(#"{"answer": {"data": ["old"]}}"#), previous: nil), "a later load began: the older answer is dropped")

        let shown = try XCTUnwrap(data.settle(second, reply: try json(#"{"answer": {"data": ["ab"], "raw": ["ab"], "page": 1, "first": 1, "lastPage": false, "requestId": "r1"}}"#), previous: nil))
        XCTAssertEqual(shown["status"], .string("ok"))
        XCTAssertEqual(shown["data"], try json(#"["ab"]"#))

        let third = try XCTUnwrap(data.begin(block, params: try json(#"{"q": "ab"}"#), nextPage: false))
        XCTAssertEqual(data.loading(third, previous: shown)["data"], try json(#"["ab"]"#), "loading again shows what was there")
        let failed = try XCTUnwrap(data.settle(third, reply: try json(#"{"error": {"code": "E_OFFLINE", "message": "down"}}"#), previous: shown))
        XCTAssertEqual(failed["status"], .string("error"))
        XCTAssertEqual(failed["error"]?["code"], .string("E_OFFLINE"))
        XCTAssertEqual(failed["data"], try json(#"["ab"]"#), "a failed refresh does not blank the list")
    }

    func testTheNextPageFollowsTheLastAnswerAndStopsAtTheLast() throws {
        let data = ScreenData(blocks: [block])
        let params = try json(#"{"q": ""}"#)
        let first = try XCTUnwrap(data.begin(block, params: params, nextPage: false))
        XCTAssertNil(data.begin(block, params: params, nextPage: true), "no next page before the first came")
        _ = data.settle(first, reply: try json(#"{"answer": {"data": [1, 2], "raw": [1, 2], "page": 1, "first": 2, "lastPage": false}}"#), previous: nil)
        let next = try XCTUnwrap(data.begin(block, params: params, nextPage: true))
        XCTAssertEqual(next.request["next"], try json(#"{"raw": [1, 2], "page": 1, "first": 2}"#))
        _ = data.settle(next, reply: try json(#"{"answer": {"data": [1, 2, 3], "raw": [1, 2, 3], "page": 2, "first": 2, "lastPage": true}}"#), previous: nil)
        XCTAssertNil(data.begin(block, params: params, nextPage: true), "nothing after the last page")
    }
}
