import HybridBridge
import HybridJSON
import HybridServices
import XCTest

/// Hot fixes (SPEC §3 `patch.*`): hooks on services and handlers, their order, removal, and
/// what happens when a hook fails.
final class PatchTests: XCTestCase {
    func testHooksRunBeforesThenReplacesOutermostLastThenAftersForCallAndCallSync() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        const seen = [];
        patch.before('service:test.echo', (p) => { seen.push('before1 ' + p.n); });
        patch.replace('service:test.echo', (original, p) => { seen.push('replace1'); return original({ n: p.n + 1 }); });
        patch.before('service:test.echo', () => { seen.push('before2'); });
        patch.replace('service:test.echo', (original, p) => { seen.push('replace2'); return original({ n: p.n * 10 }); });
        patch.after('service:test.echo', (result, p) => { seen.push('after1 ' + result.n + ' of ' + p.n); return { n: result.n + 0.5 }; });
        patch.after('service:test.echo', (result) => { seen.push('after2 ' + result.n); });
        console.log(JSON.stringify(hybrid.callSync('test.echo', { n: 1 })), seen.join(', '));
        seen.length = 0;
        hybrid.call('test.echo', { n: 2 }).then((value) => console.log(JSON.stringify(value), seen.join(', ')));
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, [
            #"{"n":11.5} before1 1, before2, replace2, replace1, after1 11 of 1, after2 11.5"#,
            #"{"n":21.5} before1 2, before2, replace2, replace1, after1 21 of 2, after2 21.5"#,
        ])
    }

    func testAsyncCallsAwaitReplacementsAndAftersSeeTheResolvedValue() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        patch.replace('service:test.later', async (original, p) => (await original({ ms: 1 })) + ' (patched)');
        patch.after('service:test.later', (result) => result.toUpperCase());
        patch.after('service:cart.add', (result) => ({ total: result.total * 2 }));
        hybrid.call('test.later', { ms: 5000 }).then((value) => console.log(value));
        WebViewJavascriptBridge.callHandler('cart.add', { sku: 'tea', price: 2, qty: 3 }, (answer) => console.log(JSON.stringify(answer)));
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output.sorted(), ["AFTER 1 MS (PATCHED)", #"{"total":12}"#])
    }

    func testTheOriginalsOwnErrorsPassThroughAndAreNotTheHooksFault() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        patch.replace('service:test.fail', (original, p) => original(p));
        patch.after('service:test.fail', () => 'never');
        for (let i = 0; i < 4; i++) {
          try { hybrid.callSync('test.fail'); } catch (error) { console.log(error.code); }
        }
        hybrid.call('test.fail').catch((error) => console.log('async ' + error.code));
        """)
        XCTAssertEqual(harness.failures, [], "the service failed, not the hooks: nothing is disabled")
        XCTAssertEqual(output, ["E_FAILED", "E_FAILED", "E_FAILED", "E_FAILED", "async E_FAILED"])
    }

    func testRegisteredHandlersArePatchedWithTheirArguments() throws {
        let harness = try ScriptHarness()
        try harness.run("""
        WebViewJavascriptBridge.registerHandler('greet', (data, reply) => reply({ greeting: 'Hello, ' + data.name }));
        patch.before('handler:greet', (data) => { data.name = data.name.toUpperCase(); });
        patch.replace('handler:greet', (original, data, reply) => original(data, (answer) => reply({ ...answer, patched: true })));
        """)
        var replies: [JSONValue] = []
        harness.runtime.callHandler("greet", data: .object(JSONObject([("name", .string("Ada"))]))) { replies.append($0) }
        XCTAssertEqual(replies.map(\.jsonText), [#"{"greeting":"Hello, ADA","patched":true}"#])
        XCTAssertEqual(harness.failures, [])
    }

    func testRemovingAHandleRemovesOnlyThatHook() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        const tag = (name) => patch.after('service:test.echo', (result) => result + name);
        const a = tag('a');
        const b = tag('b');
        tag('c');
        console.log(hybrid.callSync('test.echo', '>'));
        b.remove();
        b.remove();
        console.log(hybrid.callSync('test.echo', '>'));
        a.remove();
        console.log(hybrid.callSync('test.echo', '>'), a.target, a.kind);
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, [">abc", ">ac", ">c service:test.echo after"])
    }

    func testAllHooksRemovedLeavesTheTargetUnpatched() throws {
        let harness = try ScriptHarness(services: testRegistry())
        try harness.run("""
        globalThis.handle = patch.before('service:test.echo', () => {});
        """)
        XCTAssertTrue(harness.runtime.hasHooks(on: "service:test.echo"))
        harness.runtime.evaluate("handle.remove()")
        XCTAssertFalse(harness.runtime.hasHooks(on: "service:test.echo"))
    }
}

/// Failures: hooks that throw, run away or name no known target.
extension PatchTests {
    func testAHookThatKeepsThrowingIsDisabledAndTheOriginalRunsAgain() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        let calls = 0;
        const hook = patch.replace('service:test.echo', (original, value) => {
          calls += 1;
          if (value === 'ok') return 'patched';
          return value.missing.field;
        });
        const results = ['bad', 'ok', 'bad', 'bad', 'bad', 'bad'].map((value) => hybrid.callSync('test.echo', value));
        console.log(results.join(' '), calls, hook.disabled);
        """)
        XCTAssertEqual(output, ["bad patched bad bad bad bad 5 true"], "a success resets the count; the sixth call skips the hook")
        XCTAssertEqual(harness.failures.count, 5, harness.failures.joined(separator: "\n"))
        XCTAssertTrue(harness.failures[0].hasPrefix(harness.path("main.js") + ":5:23: TypeError: "), harness.failures[0])
        XCTAssertTrue(harness.failures[0].contains("(in a patch.replace hook on service:test.echo; the original ran instead)"), harness.failures[0])
        XCTAssertEqual(harness.failures[4], "patch on service:test.echo disabled after 3 failures; the original runs again")
        XCTAssertFalse(harness.runtime.hasHooks(on: "service:test.echo"))
    }

    func testAFailingBeforeIsSkippedAndAFailingAfterLeavesTheResult() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        patch.before('service:test.echo', () => { throw new Error('before broke'); });
        patch.after('service:test.echo', () => { throw new Error('after broke'); });
        patch.after('service:test.echo', (result) => result + '!');
        console.log(hybrid.callSync('test.echo', 'hi'));
        """)
        XCTAssertEqual(output, ["hi!"])
        XCTAssertEqual(harness.failures.count, 2)
        XCTAssertTrue(harness.failures[0].contains("Error: before broke (in a patch.before hook on service:test.echo; it was skipped for this call)"), harness.failures[0])
        XCTAssertTrue(harness.failures[1].contains("Error: after broke (in a patch.after hook on service:test.echo; the result is unchanged)"), harness.failures[1])
    }

    func testARunawayHookIsStoppedCountedAndFinallyDisabled() throws {
        let harness = try ScriptHarness(services: testRegistry(), timeLimit: 0.2)
        try harness.run("""
        WebViewJavascriptBridge.registerHandler('spin', (data, reply) => reply('original ' + data));
        patch.before('handler:spin', () => { while (true) {} });
        """)
        var replies: [String] = []
        for _ in 0..<4 {
            harness.runtime.callHandler("spin", data: .string("x")) { replies.append($0.stringValue ?? $0.jsonText) }
        }
        XCTAssertEqual(replies.last, "original x", "after three runaways the hook is off")
        XCTAssertEqual(replies.count, 4)
        XCTAssertEqual(harness.failures.count, 4, harness.failures.joined(separator: "\n"))
        XCTAssertTrue(harness.failures[0].contains("main.js:2:1: stopped: a patch hook on handler:spin (in the handler spin) ran longer than the 0.2 s limit"), harness.failures[0])
        XCTAssertEqual(harness.failures[3], "patch on handler:spin disabled after 3 failures; the original runs again")
    }

    func testUnknownTargetKindsAndBadHooksThrowTypeErrors() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        for (const target of ['cart.add', 'services:cart.add', 'service:', 42]) {
          try { patch.replace(target, () => {}); } catch (error) { console.log(error.name + ': ' + error.message); }
        }
        try { patch.after('service:cart.add', 'not a function'); } catch (error) { console.log(error.message); }
        """)
        XCTAssertEqual(harness.failures, [])
        let forms = #"the target must be "service:NAME", "handler:NAME" or "method:Type.name", not "#
        XCTAssertEqual(output, [
            #"TypeError: patch.replace(target, fn): \#(forms)"cart.add""#,
            #"TypeError: patch.replace(target, fn): \#(forms)"services:cart.add""#,
            #"TypeError: patch.replace(target, fn): \#(forms)"service:""#,
            "TypeError: patch.replace(target, fn): \(forms)42",
            #"patch.after(target, fn): fn must be a function, not "not a function""#,
        ])
    }

    func testDefineClassRefusesBadArguments() throws {
        let harness = try ScriptHarness()
        let output = try harness.run("""
        const attempts = [() => defineClass(42, {}), () => defineClass('Cart', null), () => defineClass('Cart', {}),
                          () => defineClass('Cart', { total: 3 })];
        for (const attempt of attempts) {
          try { attempt(); } catch (error) { console.log(error.name + ': ' + error.message); }
        }
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, [
            #"TypeError: defineClass(type, methods): type must be a type name such as "Cart", not 42"#,
            #"TypeError: defineClass("Cart", methods): methods must be an object of functions, not null"#,
            #"TypeError: defineClass("Cart", methods): methods lists no functions"#,
            "TypeError: defineClass(\"Cart\", methods): methods.total must be a function, not 3",
        ])
        XCTAssertFalse(harness.runtime.hasHooks(onMethod: "Cart.total"))
    }

    func testAnAsyncReplacementThatRejectsRunsTheOriginal() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        patch.replace('service:test.later', async (original, p) => { throw new Error('no luck'); });
        hybrid.call('test.later', { ms: 1 }).then((value) => console.log(value));
        """)
        XCTAssertEqual(output, ["after 1 ms"])
        XCTAssertEqual(harness.failures.count, 1)
        XCTAssertTrue(harness.failures[0].contains("Error: no luck (in a patch.replace hook on service:test.later; the original ran instead)"), harness.failures[0])
    }

    /// A replacement's value whose `then` cannot be read (a throwing getter) is the hook's
    /// failure: the original runs and the call ends (it had thrown before there was a promise).
    func testAReplacementWhoseThenCannotBeReadRunsTheOriginal() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        patch.replace('service:test.later', () => ({ get then() { throw new Error('no then'); } }));
        hybrid.call('test.later', { ms: 1 }).then((value) => console.log(value), (error) => console.log('rejected', error.message));
        """)
        XCTAssertEqual(output, ["after 1 ms"])
        XCTAssertEqual(harness.failures.count, 1)
        XCTAssertTrue(harness.failures[0].contains("Error: no then (in a patch.replace hook on service:test.later; the original ran instead)"), harness.failures[0])
    }

    func testPatchesOnUnknownServicesAndMethodsAreAcceptedWithAWarning() throws {
        let services = testRegistry()
        services.patchableMethods.declare("Cart.total") { (items: [Double]) in items.reduce(0, +) }
        let harness = try ScriptHarness(services: services)
        let output = try harness.run("""
        patch.after('method:Cart.totl', (x) => x);
        patch.after('service:cart.ad', (x) => x);
        patch.after('method:Cart.total', (x) => x);
        patch.after('handler:later', (x) => x);
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, [
            #"warn: \#(harness.path("main.js")):1:12: patch on method:Cart.totl: no Swift function named "Cart.totl" is declared patchable (yet); did you mean "Cart.total"?"#,
            #"warn: \#(harness.path("main.js")):2:12: patch on service:cart.ad: no service named "cart.ad" is registered (yet); did you mean "cart.add"?"#,
        ])
    }
}

/// Patchable Swift functions, straight on the runtime (the app's `patchable` wraps these).
extension PatchTests {
    struct Order: Codable, Equatable {
        var lines: [Line]
        struct Line: Codable, Equatable {
            var qty: Int
        }
    }

    func testAMethodResultThatDoesNotDecodeIsAFailureAndTheOriginalsValueIsUsed() throws {
        let harness = try ScriptHarness()
        harness.services.patchableMethods.declare("Order.normalized") { (order: Order) in order }
        try harness.run("""
        patch.replace('method:Order.normalized', (original, order) => ({ lines: order.lines.map((line) => ({ qty: String(line.qty) })) }));
        """)
        let order = Order(lines: [Order.Line(qty: 1), Order.Line(qty: 2)])
        var calls = 0
        let body = { (order: Order) -> Order in
            calls += 1
            return order
        }
        for _ in 0..<4 {
            XCTAssertEqual(harness.runtime.callPatchable("Order.normalized", order, body: body), order)
        }
        XCTAssertEqual(calls, 4, "the original's value, computed again: the hook never called it")
        XCTAssertFalse(harness.runtime.hasHooks(onMethod: "Order.normalized"), "disabled after three bad results")
        XCTAssertEqual(harness.failures.count, 4, harness.failures.joined(separator: "\n"))
        XCTAssertEqual(harness.failures[0], #"method:Order.normalized: the patched result does not fit Order: field "lines[0].qty": expected an integer, got "1"; the original's value is used"#)
        XCTAssertEqual(harness.failures[3], "patch on method:Order.normalized disabled after 3 failures; the original runs again")
    }

    func testAMethodsHooksGetItsInputAndItsOriginalRunsTheSwiftBody() throws {
        let harness = try ScriptHarness()
        harness.services.patchableMethods.declare("Math.double") { (n: Int) in n * 2 }
        try harness.run("""
        patch.replace('method:Math.double', (original, n) => original(n + 1) + 100);
        patch.before('method:Math.double', (n) => console.log('before', n));
        patch.replace('method:Clock.now', (original) => original() + 1);
        """)
        XCTAssertEqual(harness.runtime.callPatchable("Math.double", 5) { (n: Int) in n * 2 }, 112)
        XCTAssertEqual(harness.runtime.callPatchable("Clock.now") { 41 }, 42, "no input: the hooks get no arguments")
        XCTAssertEqual(harness.output.filter { !$0.hasPrefix("warn:") }, ["before 5"])
    }

    func testWhatTheSwiftBodyThrowsReachesTheSwiftCaller() throws {
        struct Refused: Error, Equatable {}
        let harness = try ScriptHarness()
        try harness.run("patch.replace('method:Gate.open', (original, code) => original(code));")
        XCTAssertThrowsError(try harness.runtime.callPatchable("Gate.open", 7) { (_: Int) throws(Refused) -> Bool in throw Refused() }) { error in
            XCTAssertEqual(error as? Refused, Refused())
        }
        XCTAssertEqual(harness.failures, [], "the body's error is the Swift caller's, not a script failure")
    }
}

extension PatchTests {
    func testARunawayHookInANestedCallIsReportedOnceAndCounted() throws {
        let services = ServiceRegistry()
        nonisolated(unsafe) weak var runtime: ScriptRuntime?
        // A sync service that calls a patchable function: JavaScript → Swift → JavaScript.
        services.register("shop.total") { (_: Empty) -> Int in
            runtime?.callPatchable("Cart.total", 3) { (n: Int) in n * 2 } ?? 0
        }
        services.patchableMethods.declare("Cart.total") { (n: Int) in n * 2 }
        let harness = try ScriptHarness(services: services, timeLimit: 0.2)
        runtime = harness.runtime
        try harness.run("patch.before('method:Cart.total', () => { while (true) {} });")
        for _ in 0..<4 {
            harness.runtime.evaluate("console.log('total', hybrid.callSync('shop.total'))")
        }
        XCTAssertEqual(harness.output, ["total 6"], "each runaway ends the whole entry; the fourth call finds the hook disabled")
        // Located where the hook was stopped (the engine names the line; its column is 1).
        XCTAssertEqual(harness.failures.map { String($0.prefix { $0 != "\n" }) }, Array(repeating: "\(harness.folder.path)/main.js:1:1: stopped: a patch hook on method:Cart.total (in a call of Cart.total) ran longer than the 0.2 s limit (a runaway script?)", count: 3)
            + ["patch on method:Cart.total disabled after 3 failures; the original runs again"])
    }
}
