import HybridBridge
import HybridJSON
import HybridServices
import XCTest

final class ServiceCallTests: XCTestCase {
    func testValuesOfEveryJSONTypeCrossBothWays() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        const value = { s: 'é漢🚀', i: 42, n: -1.5, t: true, f: false, z: null, a: [1, [2, { x: 'y' }], []], o: { deep: { er: {} } } };
        hybrid.call('test.echo', value).then((back) => console.log(JSON.stringify(back)));
        console.log(JSON.stringify(hybrid.callSync('test.echo', [1, 'two', null])));
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, [
            #"[1,"two",null]"#,
            #"{"s":"é漢🚀","i":42,"n":-1.5,"t":true,"f":false,"z":null,"a":[1,[2,{"x":"y"}],[]],"o":{"deep":{"er":{}}}}"#,
        ])
    }

    func testEachErrorCodeWithAMessageAndTheCallingLine() throws {
        let harness = try ScriptHarness(services: testRegistry(), permissions: [])
        let output = try harness.run("""
        function show(promise) {
          return promise.then((v) => console.log('ok', v), (e) => console.log(e.code, e.message, e instanceof Error, /main\\.js:\\d+/.test(e.stack)));
        }
        show(hybrid.call('cart.ad', {}))
          .then(() => show(hybrid.call('test.later', 5)))
          .then(() => show(hybrid.call('cart.add', { sku: 'a', price: 1, qty: 1 })))
          .then(() => show(hybrid.call('test.fail')))
          .then(() => show(hybrid.call('test.later', { ms: 600000 }, { timeout: 50 })));
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output.count, 5, "\(output)")
        XCTAssertTrue(output[0].hasPrefix(#"E_NO_SERVICE no service named "cart.ad"; did you mean "cart.add"? (called at "#), output[0])
        XCTAssertTrue(output[0].hasSuffix("main.js:4:17) true true"), output[0])
        XCTAssertTrue(output[1].hasPrefix("E_BAD_PARAMS test.later: expected an object of parameters, got a number (called at "), output[1])
        XCTAssertTrue(output[2].hasPrefix(#"E_DENIED cart.add needs the permission "cart", which test was not granted"#), output[2])
        XCTAssertTrue(output[3].hasPrefix("E_FAILED test.fail failed: the disk is full"), output[3])
        XCTAssertTrue(output[4].hasPrefix("E_TIMEOUT test.later did not answer within 50 ms"), output[4])
    }

    /// An async service that answers or fails without waiting settles the promise the same way
    /// as one that waits: the value, or the error with its code, message, details and place.
    func testAsyncAnswersGivenAtOnceOrLaterLookTheSame() throws {
        let services = ServiceRegistry()
        services.register("test.http") { (request: Later) async throws -> String in
            if request.ms > 0 { try await Task.sleep(nanoseconds: UInt64(request.ms) * 1_000_000) }
            throw ServiceError(.http, "the server said no", details: JSONObject([("status", .integer(503))]))
        }
        services.register("test.value") { (request: Later) async throws -> Int in
            if request.ms > 0 { try await Task.sleep(nanoseconds: UInt64(request.ms) * 1_000_000) }
            return request.ms + 1
        }
        let harness = try ScriptHarness(services: services)
        let output = try harness.run("""
        (async () => {
          for (const ms of [0, 5]) {
            console.log('value', await hybrid.call('test.value', { ms }));
            try { await hybrid.call('test.http', { ms }); } catch (e) {
              console.log(e.code, e.status, e instanceof Error, /main\\.js:\\d+/.test(e.stack), e.message.replace(/ \\(called at .*\\)$/, ''));
            }
          }
        })();
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, ["value 1", "E_HTTP 503 true true the server said no", "value 6", "E_HTTP 503 true true the server said no"])
    }

    func testParametersAreValidatedBeforeTheServiceRuns() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        const tries = [
          {}, { sku: 'a', price: 2, qty: 'two' }, { sku: 'a', price: 2, qty: 1, qtty: 3 }, [1], { sku: 'a', price: 2, qty: 1.5 },
        ];
        for (const params of tries) {
          try { hybrid.callSync('cart.add', params); } catch (e) { console.log(e.code + ' ' + e.message.replace(/ \\(called at .*\\)$/, '')); }
        }
        console.log(JSON.stringify(hybrid.callSync('cart.add', { sku: 'a', price: 2.5, qty: 2 })));
        """)
        XCTAssertEqual(output, [
            #"E_BAD_PARAMS cart.add: missing field "sku""#,
            #"E_BAD_PARAMS cart.add: field "qty": expected an integer, got "two""#,
            #"E_BAD_PARAMS cart.add: unknown field "qtty"; did you mean "qty"? (it takes "sku", "price", "qty", "note")"#,
            #"E_BAD_PARAMS cart.add: expected an object of parameters, got an array"#,
            #"E_BAD_PARAMS cart.add: field "qty": expected an integer, got 1.5"#,
            #"{"total":5}"#,
        ])
    }

    /// The prelude reads a checked object's fields and hands Swift their values in order: what
    /// it reads (absent, undefined, null, getters, inherited fields) is what Swift would have
    /// read, for sync and async calls alike, and a getter that throws is still reported, on an
    /// optional field too.
    func testFieldsReadByThePreludeAreWhatTheServiceGets() throws {
        let services = testRegistry()
        services.register("test.echoItem") { (item: Item) in item }
        let harness = try ScriptHarness(services: services)
        let output = try harness.run("""
        const show = (v) => console.log(JSON.stringify(v));
        const tries = [
          { sku: 'a', price: 2, qty: 1 }, { sku: 'a', price: 2, qty: 1, note: undefined }, { note: 'n', qty: 3, price: 1, sku: 'b' },
          { sku: 'a', price: 2, qty: 1, note: null }, { get sku() { return 'g'; }, price: 1, qty: 4 },
          Object.assign(Object.create({ sku: 'inherited' }), { price: 1, qty: 5 }),
          { sku: 'a', price: 2, get qty() { throw new Error('no qty'); } }, { sku: 'a', price: 2 },
          { sku: 'a', price: 2, qty: 1, get note() { throw new Error('no note'); } },
        ];
        for (const params of tries) {
          try { show(hybrid.callSync('test.echoItem', params)); } catch (e) { console.log(e.code + ' ' + e.message.replace(/ \\(called at .*\\)$/, '')); }
        }
        hybrid.call('test.echoItem', { qty: 6, sku: 'async', price: 0.5 }).then(show);
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, [
            #"{"sku":"a","price":2,"qty":1}"#, #"{"sku":"a","price":2,"qty":1}"#, #"{"sku":"b","price":1,"qty":3,"note":"n"}"#,
            #"{"sku":"a","price":2,"qty":1}"#, #"{"sku":"g","price":1,"qty":4}"#, #"{"sku":"inherited","price":1,"qty":5}"#,
            #"E_BAD_PARAMS test.echoItem: $.qty could not be read: Error: no qty"#, #"E_BAD_PARAMS test.echoItem: missing field "qty""#,
            #"E_BAD_PARAMS test.echoItem: $.note could not be read: Error: no note"#,
            #"{"sku":"async","price":0.5,"qty":6}"#,
        ])
    }

    /// Absent parameters (none, null, undefined) are `{}`: a service taking none answers, one
    /// whose fields are all optional gets them all missing, one with a required field says it
    /// is missing, and one taking any JSON gets `{}`; sync and async alike.
    func testAbsentParametersAreAnEmptyObject() throws {
        struct Page: Codable, Sendable { var limit: Int?; var from: String? }
        let services = testRegistry()
        services.register("test.page") { (page: Page) in [page.limit.map(String.init) ?? "none", page.from ?? "start"] }
        let harness = try ScriptHarness(services: services)
        let output = try harness.run("""
        const show = (v) => console.log(JSON.stringify(v));
        for (const name of ['test.open', 'test.page', 'cart.add', 'test.echo']) {
          for (const params of [[], [null], [undefined]]) {
            try { show(hybrid.callSync(name, ...params)); } catch (e) { console.log(e.code + ' ' + e.message.replace(/ \\(called at .*\\)$/, '')); }
          }
        }
        hybrid.call('test.page').then(show);
        hybrid.call('test.open', null).then(show);
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, [
            "{}", "{}", "{}",
            #"["none","start"]"#, #"["none","start"]"#, #"["none","start"]"#,
            #"E_BAD_PARAMS cart.add: missing field "sku""#, #"E_BAD_PARAMS cart.add: missing field "sku""#, #"E_BAD_PARAMS cart.add: missing field "sku""#,
            "{}", "{}", "{}",
            #"["none","start"]"#, "{}",
        ])
    }

    /// The prelude writes up to four field values out as arguments and spreads more: a service
    /// with five or six fields gets each in its place, given, missing or absent, sync and async,
    /// and one that fails runs once, however many fields it has.
    func testEveryFieldArrivesInItsPlaceHoweverManyThereAre() throws {
        struct Five: Codable, Sendable { var a: Int; var b: Int?; var c: Int; var d: Int?; var e: Int }
        struct Six: Codable, Sendable { var a: Int?; var b: Int?; var c: Int?; var d: Int?; var e: Int?; var f: Int? }
        final class Runs: @unchecked Sendable { var count = 0 }
        let runs = Runs()
        let services = testRegistry()
        services.register("test.five") { (five: Five) in [five.a, five.b ?? -1, five.c, five.d ?? -1, five.e] }
        services.register("test.six") { (six: Six) in [six.a, six.b, six.c, six.d, six.e, six.f].map { $0 ?? -1 } }
        services.register("test.failing") { (_: Six) -> Int in
            runs.count += 1
            throw ServiceError(.failed, "no")
        }
        let harness = try ScriptHarness(services: services)
        let output = try harness.run("""
        const show = (v) => console.log(JSON.stringify(v));
        show(hybrid.callSync('test.five', { e: 5, d: 4, c: 3, b: 2, a: 1 }));
        show(hybrid.callSync('test.five', { a: 1, c: 3, e: 5 }));
        show(hybrid.callSync('test.six', { f: 6, b: 2 }));
        show(hybrid.callSync('test.six', null));
        show(hybrid.callSync('test.six'));
        try { hybrid.callSync('test.five', { a: 1, c: 3 }); } catch (e) { console.log(e.code + ' ' + e.message.replace(/ \\(called at .*\\)$/, '')); }
        hybrid.call('test.six', { a: 1, c: 3, e: 5 }).then(show);
        for (const params of [{ a: 1, f: 6 }, { a: 1 }, null]) {
          try { hybrid.callSync('test.failing', params); } catch (e) { console.log(e.code); }
        }
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, [
            "[1,2,3,4,5]", "[1,-1,3,-1,5]", "[-1,2,-1,-1,-1,6]", "[-1,-1,-1,-1,-1,-1]", "[-1,-1,-1,-1,-1,-1]",
            #"E_BAD_PARAMS test.five: missing field "e""#, "E_FAILED", "E_FAILED", "E_FAILED", "[1,-1,3,-1,5,-1]",
        ])
        XCTAssertEqual(runs.count, 3, "each failing call ran its service once")
    }

    /// Short strings a service is given are kept and recognised by their value the next time
    /// (`RecentStrings`): whether the same literal comes again, a new string of the same text,
    /// many different ones (more than are kept), long ones or empty ones, and while the
    /// collector frees the strings let go (a freed string's place taken by another), each call
    /// gets exactly the strings it was given.
    func testStringParametersAreTheOnesGivenHoweverOftenTheyRepeat() throws {
        struct Pair: Codable, Sendable { var key: String; var note: String? }
        let services = testRegistry()
        services.register("test.pair") { (pair: Pair) in pair.key + "|" + (pair.note ?? "-") }
        let harness = try ScriptHarness(services: services)
        _ = try harness.run("""
        globalThis.wrong = [];
        const check = (key, note, where) => {
          const got = hybrid.callSync('test.pair', { key, note });
          const expected = key + '|' + (note === undefined ? '-' : note);
          if (got !== expected) wrong.push(`${where}: ${got} for ${expected}`);
        };
        // Strings made one after another, then given in that order.
        globalThis.round = (round, count) => {
          const keys = Array.from({ length: count }, (_, i) => i % 5 === 0 ? 'fixed' : i % 5 === 1 ? 'é'.repeat(i % 40) : `${round}.${i}`);
          keys.forEach((key, i) => check(key, i % 3 === 0 ? undefined : i % 3 === 1 ? 'fixed' : key + '!', `${round}.${i}`));
        };
        """)
        let collect = try XCTUnwrap(Self.collectAllGarbage(), "the engine's synchronous collection")
        // The strings kept are freed between rounds, and the next round's take their places.
        for round in 0..<60 {
            _ = harness.runtime.evaluate("round(\(round), \(round % 2 == 0 ? 20 : 200))")
            collect(harness.runtime.context.ref)
        }
        XCTAssertEqual(harness.runtime.evaluate("wrong.slice(0, 5).join('; ')"), .string(""))
        XCTAssertEqual(harness.failures, [])
    }

    /// JavaScriptCore's `JSSynchronousGarbageCollectForDebugging`: a full collection now, where
    /// `JSGarbageCollect` only asks for one.
    private static func collectAllGarbage() -> (@convention(c) (OpaquePointer?) -> Void)? {
        guard let library = dlopen("libjavascriptcoregtk-4.1.so.0", RTLD_LAZY | RTLD_NOLOAD),
              let function = dlsym(library, "JSSynchronousGarbageCollectForDebugging") else { return nil }
        return unsafeBitCast(function, to: (@convention(c) (OpaquePointer?) -> Void).self)
    }

    func testServicesListsNamesAndParameters() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        const add = hybrid.services().find((s) => s.name === 'cart.add');
        console.log(JSON.stringify(add));
        try { hybrid.callSync('test.later', { ms: 1 }); } catch (e) { console.log(e.code); }
        """)
        XCTAssertEqual(output, [
            #"{"name":"cart.add","sync":true,"params":[{"name":"sku","type":"string","required":true},{"name":"price","type":"number","required":true},{"name":"qty","type":"integer","required":true},{"name":"note","type":"string","required":false}],"permission":"cart"}"#,
            "E_FAILED",
        ])
    }

    func testAsyncServicesResolveOnTheScriptThreadInTheOrderTheyAnswer() throws {
        // test.gate answers only once test.open was called, which happens after test.later
        // answered: the order is the code's, not the clock's.
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        hybrid.call('test.gate').then((v) => console.log(v));
        hybrid.call('test.later', { ms: 1 }).then((v) => { console.log(v); hybrid.callSync('test.open'); });
        console.log('started');
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, ["started", "after 1 ms", "the gate opened"])
    }

    func testAServiceReRegisteredWhileScriptsRunIsCheckedAnew() throws {
        let services = testRegistry()
        let harness = try ScriptHarness(services: services)
        try harness.run("globalThis.add = () => { try { return JSON.stringify(hybrid.callSync('cart.add', { sku: 'a', price: 1, qty: 2 })); } catch (e) { return e.message; } };")
        XCTAssertEqual(harness.runtime.evaluate("add()"), .string(#"{"total":2}"#))
        struct SkuOnly: Codable, Sendable { var sku: String }
        services.register("cart.add") { (item: SkuOnly) in item.sku }
        XCTAssertEqual(harness.runtime.evaluate("add().replace(/ \\(called at .*\\)$/, '')"),
                       .string(#"cart.add: unknown field "price" (it takes "sku")"#))
        // A service that comes, then goes, while a script calls it by the same name.
        _ = harness.runtime.evaluate("globalThis.later = () => { try { return hybrid.callSync('cart.later', null); } catch (e) { return e.code; } };")
        XCTAssertEqual(harness.runtime.evaluate("later()"), .string("E_NO_SERVICE"))
        services.register("cart.later") { (_: Empty) in "here" }
        XCTAssertEqual(harness.runtime.evaluate("later()"), .string("here"))
        services.register("cart.later") { (_: Empty) in "replaced" }
        XCTAssertEqual(harness.runtime.evaluate("later()"), .string("replaced"))
        services.unregister("cart.later")
        XCTAssertEqual(harness.runtime.evaluate("later()"), .string("E_NO_SERVICE"))
    }
}
