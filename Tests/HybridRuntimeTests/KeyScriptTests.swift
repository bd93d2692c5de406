import HybridRuntime
import XCTest

final class KeyScriptTests: XCTestCase {
    func testKeysTextAndWaits() throws {
        let script = try KeyScript(parsing: #"tab shift+tab "Ada \"L\"" enter wait:200ms x wait:1s ctrl+c space"#)
        XCTAssertEqual(script.steps, [
            .key("tab"), .key("shift+tab"), .text(#"Ada "L""#), .key("enter"), .wait(0.2), .key("x"), .wait(1), .key("ctrl+c"), .key("space"),
        ])
    }

    func testBadItemsAreNamed() {
        XCTAssertThrowsError(try KeyScript(parsing: "tab hyper+x")) { error in
            XCTAssertTrue("\(error)".hasPrefix(#"--keys: unknown key "hyper+x""#), "\(error)")
        }
        XCTAssertThrowsError(try KeyScript(parsing: "wait:soon")) { error in
            XCTAssertEqual("\(error)", #"--keys: "wait:soon": expected a wait like wait:200ms or wait:1s"#)
        }
        XCTAssertThrowsError(try KeyScript(parsing: #"tab "open"#))
    }
}
