import HybridRuntime
import XCTest

final class KeyScriptTests: XCTestCase {
    func testKeysTextAndWaits() throws {
        let script = try KeyScript(parsing: #"tab shift+tab "Ada \"L\"" enter wait:200ms x wait:1s ctrl+c space"#)
        XCTAssertEqual(script.steps, [
            .key("tab"), .key("shift+tab"), .text(#"Ada "L""#), .key("enter"), .wait(0.2), .key("x"), .wait(1), .key("ctrl+c"), .key("space"),
        ])
    }

    /// The readline keys of inputs and textareas, as `--keys` names them.
    func testReadlineAndModifiedKeyNames() throws {
        let script = try KeyScript(parsing: "ctrl+a ctrl+e ctrl+w ctrl+u ctrl+k alt+b alt+f ctrl+left ctrl+right home end delete alt+backspace ctrl+enter Ctrl+Left")
        XCTAssertEqual(script.steps, ["ctrl+a", "ctrl+e", "ctrl+w", "ctrl+u", "ctrl+k", "alt+b", "alt+f", "ctrl+left", "ctrl+right",
                                      "home", "end", "delete", "alt+backspace", "ctrl+enter", "ctrl+left"].map(KeyScript.Step.key))
    }

    func testBadItemsAreNamed() {
        XCTAssertThrowsError(try KeyScript(parsing: "tab hyper+x")) { error in
            XCTAssertTrue("\(error)".hasPrefix(#"--keys: unknown key "hyper+x""#), "\(error)")
        }
        XCTAssertThrowsError(try KeyScript(parsing: "wait:soon")) { error in
            XCTAssertEqual("\(error)", #"--keys: "wait:soon": expected a wait like wait:200ms or wait:1s"#)
        }
        XCTAssertThrowsError(try KeyScript(parsing: #"tab "open"#))
        // An infinite or absurd wait never ended with a timer running.
        for wait in ["wait:1e400ms", "wait:99999999s", "wait:3601s"] {
            XCTAssertThrowsError(try KeyScript(parsing: wait)) { error in
                XCTAssertEqual("\(error)", "--keys: \"\(wait)\": a wait is at most 3600 s (an hour)")
            }
        }
        XCTAssertNoThrow(try KeyScript(parsing: "wait:3600s wait:3600000ms"))
    }
}
