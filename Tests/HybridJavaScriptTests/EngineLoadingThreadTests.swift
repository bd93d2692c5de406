import CJavaScriptCore
import HybridJavaScript
import XCTest

/// The engine's loading thread (`JavaScriptEngine.startLoading()`), asked to, makes the first
/// context's virtual machine too; the next context takes it, once, and works as any other.
/// (One test: the thread starts once per process.)
final class EngineLoadingThreadTests: XCTestCase {
    func testThePreparedContextIsTakenOnceByTheNextContext() throws {
        JavaScriptEngine.startLoading()
        // Asked for after the library loaded, as a terminal run asks once its session started:
        // the thread waits for the request.
        try JavaScriptEngine.load()
        JavaScriptEngine.prepareFirstContext()
        var group: JSContextGroupRef?
        var context: JSGlobalContextRef?
        // Taken here, so it is known to have been prepared; handed back by releasing it.
        XCTAssertTrue(HybridJavaScriptCoreTakePreparedContext(&group, &context), "the thread prepared one")
        XCTAssertNotNil(group)
        XCTAssertNotNil(context)
        let characters = Array("6 * 7".utf16)
        let script = JSStringCreateWithCharacters(characters, characters.count)
        defer { JSStringRelease(script) }
        XCTAssertEqual(JSValueToNumber(context, JSEvaluateScript(context, script, nil, nil, 1, nil), nil), 42, "made on another thread, used on this one")
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
        XCTAssertFalse(HybridJavaScriptCoreTakePreparedContext(&group, &context), "once")
        // Contexts made later make their own machine.
        let later = JavaScriptContext()
        XCTAssertEqual(try later.evaluate("6 * 7").number, 42)
    }
}
