import HybridBridge
import HybridJSON
import HybridServices
import XCTest

/// A script written for WebViewJavascriptBridge (its usual set-up snippet included) runs as is.
final class WebViewJavascriptBridgeTests: XCTestCase {
    static let script = """
    function setupWebViewJavascriptBridge(callback) {
      if (window.WebViewJavascriptBridge) { return callback(WebViewJavascriptBridge); }
      if (window.WVJBCallbacks) { return window.WVJBCallbacks.push(callback); }
      window.WVJBCallbacks = [callback];
    }
    setupWebViewJavascriptBridge(function (bridge) {
      bridge.registerHandler('greet', function (data, responseCallback) {
        responseCallback({ greeting: 'Hello, ' + data.name });
      });
      bridge.registerHandler('explode', function () { throw new Error('handler blew up'); });
      bridge.callHandler('cart.add', { sku: 'tea', price: 2, qty: 3 }, function (response) {
        console.log('cart.add ' + JSON.stringify(response));
      });
      bridge.callHandler('cart.remove', { sku: 'tea' }, function (response) {
        console.log('cart.remove ' + JSON.stringify(response));
      });
      bridge.callHandler('test.echo');
    });
    """

    func testCallHandlerAnswersResultsAndErrors() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run(Self.script)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, [
            #"cart.add {"total":6}"#,
            #"cart.remove {"error":{"code":"E_NO_SERVICE","message":"no service named \"cart.remove\" (called at "# + harness.path("main.js") + #":14:21)"}}"#,
        ])
    }

    func testNativeCodeCallsRegisteredHandlers() throws {
        let harness = try ScriptHarness(services: testRegistry())
        try harness.run(Self.script)
        var replies: [JSONValue] = []
        harness.runtime.callHandler("greet", data: .object(JSONObject([("name", .string("Ada"))]))) { replies.append($0) }
        harness.runtime.callHandler("nobody", data: .null) { replies.append($0) }
        harness.runtime.callHandler("explode", data: .null) { replies.append($0) }
        XCTAssertEqual(replies.map(\.jsonText), [
            #"{"greeting":"Hello, Ada"}"#,
            #"{"error":{"code":"E_NO_SERVICE","message":"no handler named \"nobody\" is registered"}}"#,
            #"{"error":{"code":"E_FAILED","message":"Error: handler blew up"}}"#,
        ])
        XCTAssertEqual(harness.failures.count, 1, "the throwing handler is reported too")
    }
}

extension WebViewJavascriptBridgeTests {
    func testAHandlerMayAnswerLater() throws {
        let harness = try ScriptHarness()
        try harness.write(["main.js": "WebViewJavascriptBridge.registerHandler('slow', (data, reply) => setTimeout(() => reply({ twice: data.n * 2 }), 20));"])
        harness.runtime.runMain(path: harness.path("main.js"))
        var replies: [JSONValue] = []
        harness.runtime.callHandler("slow", data: .object(JSONObject([("n", .integer(21))]))) { replies.append($0) }
        XCTAssertEqual(replies, [])
        harness.runtime.loop.run(untilIdle: true)
        XCTAssertEqual(replies.map(\.jsonText), [#"{"twice":42}"#])
    }
}
