import HybridJavaScript
import XCTest

final class JavaScriptContextTests: XCTestCase {
    func testEvaluatesWithTheRealEngine() throws {
        let context = JavaScriptContext()
        XCTAssertEqual(try context.evaluate("[1, 2, 3].map(x => x * 2).join(',')"), "2,4,6")
        XCTAssertEqual(try context.evaluate("typeof Promise"), "function")
    }

    func testThrownErrorsAreLocated() {
        let context = JavaScriptContext()
        XCTAssertThrowsError(try context.evaluate("let a = 1;\nnull.x", sourceURL: "boom.js")) { error in
            let scriptError = error as? JavaScriptContext.ScriptError
            XCTAssertEqual(scriptError?.location, "boom.js:2:5")
            XCTAssertTrue(scriptError?.message.hasPrefix("TypeError") ?? false, "\(error)")
        }
        // The context stays usable after an exception.
        XCTAssertEqual(try context.evaluate("40 + 2"), "42")
    }
}
