import HybridBundles
import HybridJSON
@testable import HybridRuntime
import HybridServices
import XCTest

/// Hot fixes in an app (SPEC §3 `patch.*` and `defineClass`, SPEC §4 `app.patchable`).
final class PatchableTests: XCTestCase {
    struct Cart: Codable {
        var items: [Item]

        struct Item: Codable {
            var price: Double
            var qty: Int
        }
    }

    static let cart = Cart(items: [Cart.Item(price: 2, qty: 3), Cart.Item(price: 5, qty: 1)])

    func testDefineClassFixesATotalThatForgotTheQuantities() throws {
        let harness = try AppHarness()
        let total = harness.app.patchable("Cart.total") { (cart: Cart) -> Double in cart.items.reduce(0) { $0 + $1.price } }
        XCTAssertEqual(total(Self.cart), 7, "unpatched, the bug shows")
        try harness.loadBundle(script: """
        defineClass('Cart', {
          total: function (cart) {
            // The Swift total forgets qty: hand it one line per unit.
            const units = cart.items.flatMap((item) => Array.from({ length: item.qty }, () => ({ price: item.price, qty: 1 })));
            return self.ORIGtotal({ items: units });
          },
        });
        """)
        XCTAssertEqual(total(Self.cart), 11)
        XCTAssertEqual(harness.app.scripts?.evaluate("typeof self"), .string("undefined"), "self is bound only during the call")
        XCTAssertEqual(harness.problems.filter { !$0.contains("development bundle") }, [])
    }

    func testSelfIsBoundPerCallThroughNestedAndReEntrantCalls() throws {
        let harness = try AppHarness()
        let count = harness.app.patchable("Cart.count") { (cart: Cart) -> Int in cart.items.count }
        final class Seen { var counts: [Int] = [] }
        let seen = Seen()
        let total = harness.app.patchable("Cart.total") { (cart: Cart) -> Double in
            // Re-enters JavaScript while the total's hook is running.
            seen.counts.append(count(cart))
            return cart.items.reduce(0) { $0 + $1.price * Double($1.qty) }
        }
        try harness.loadBundle(script: """
        globalThis.log = [];
        const shop = defineClass('Cart', {
          total: function (cart) {
            const mine = self;
            log.push('ORIGcount ' + self.ORIGcount(cart));
            const result = self.ORIGtotal(cart);
            log.push('total kept its self: ' + (self === mine) + ', this too: ' + (this === mine));
            return result;
          },
          count: function (cart) {
            log.push('count has ORIGtotal: ' + typeof self.ORIGtotal + ', ORIGcount: ' + self.ORIGcount(cart));
            return cart.items.reduce((sum, item) => sum + item.qty, 0);
          },
        });
        globalThis.shop = shop;
        """)
        XCTAssertEqual(total(Self.cart), 11)
        XCTAssertEqual(seen.counts, [4], "the nested count ran its patched version")
        XCTAssertEqual(harness.app.scripts?.evaluate("log.join('; ')"), .string(
            "ORIGcount 2; count has ORIGtotal: function, ORIGcount: 2; total kept its self: true, this too: true"))
        harness.app.scripts?.evaluate("shop.remove()")
        XCTAssertEqual(count(Self.cart), 2, "remove() takes every method's hook away")
        XCTAssertFalse(harness.app.scripts?.hasHooks(onMethod: "Cart.total") ?? true)
    }

    func testAnUnpatchedPatchableNeverTouchesJavaScript() throws {
        let harness = try AppHarness()
        let double = harness.app.patchable("Math.double") { (value: Tripwire) in value.n * 2 }
        let zero = harness.app.patchable("Math.zero") { 0 }
        XCTAssertEqual(double(Tripwire(n: 21)), 42, "no scripts yet")
        try harness.loadBundle(script: """
        globalThis.calls = 0;
        patch.before('method:Math.other', () => { calls += 1; });
        """)
        Tripwire.encodings = 0
        XCTAssertEqual(double(Tripwire(n: 21)), 42)
        XCTAssertEqual(zero(), 0)
        XCTAssertEqual(Tripwire.encodings, 0, "no JSON round trip")
        XCTAssertEqual(harness.app.scripts?.evaluate("calls"), .integer(0))
        harness.app.scripts?.evaluate("patch.before('method:Math.double', () => { calls += 1; }); patch.before('method:Math.zero', () => { calls += 1; })")
        XCTAssertEqual(double(Tripwire(n: 21)), 42)
        XCTAssertEqual(zero(), 0)
        XCTAssertEqual(Tripwire.encodings, 1)
        XCTAssertEqual(harness.app.scripts?.evaluate("calls"), .integer(2))
    }

    struct Tripwire: Codable {
        nonisolated(unsafe) static var encodings = 0
        var n: Int

        func encode(to encoder: any Encoder) throws {
            Self.encodings += 1
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(n, forKey: .n)
        }
    }
}

/// Services and handlers patched in an app: screens' `call` actions and `ui.handler`s.
extension PatchableTests {
    struct Quote: Codable, Sendable {
        var sku: String
    }

    func testACallActionGoesThroughTheServicesHooks() throws {
        let harness = try AppHarness()
        harness.app.services.register("shop.quote") { (quote: Quote) async throws -> String in "\(quote.sku) costs 2" }
        harness.app.services.register("shop.stock") { (quote: Quote) in "\(quote.sku): 3 left" }
        try harness.loadBundle(script: """
        patch.after('service:shop.quote', (result, params) => `${result} (fixed for ${params.sku})`);
        patch.replace('service:shop.stock', (original, params) => original({ sku: params.sku.toUpperCase() }));
        """, screen: AppHarness.screen(#"{"type": "column", "children": [{"type": "text", "text": "@{quote}"}, {"type": "text", "text": "@{stock}"}]}"#,
                                       state: #"{"quote": "", "stock": ""}"#, extra: #"""
        "keys": {"q": {"action": "call", "service": "shop.quote", "params": {"sku": "tea"}, "result": "quote"},
                 "s": {"action": "call", "service": "shop.stock", "params": {"sku": "tea"}, "result": "stock"}}
        """#))
        let rows = HeadlessDriver.run(harness.app, keys: try KeyScript(parsing: "q s")).plainLines()
        XCTAssertEqual(Array(rows.prefix(2)), ["tea costs 2 (fixed for tea)", "TEA: 3 left"])
        XCTAssertEqual(harness.problems.filter { !$0.contains("development bundle") }, [])
    }

    func testUIHandlersAreHookedByName() throws {
        let harness = try AppHarness()
        try harness.loadBundle(script: """
        ui.handler('inc', () => state.set('n', state.get('n') + 1));
        patch.before('handler:inc', (event) => state.set('key', event.key));
        patch.replace('handler:inc', (original, event) => { original(event); original(event); });
        """, screen: AppHarness.screen(#"{"type": "text", "text": "n=@{n} key=@{key}"}"#, state: #"{"n": 0, "key": ""}"#,
                                       extra: #""keys": {"+": "inc"}"#))
        let rows = HeadlessDriver.run(harness.app, keys: try KeyScript(parsing: "+ +")).plainLines()
        XCTAssertEqual(rows[0], "n=4 key=+")
    }
}

extension AppHarness {
    /// Loads a development bundle whose script is `script` and whose start screen is `screen`.
    func loadBundle(script: String, screen: String = AppHarness.screen(#"{"type": "text", "text": "hi"}"#)) throws {
        try write([
            "manifest.json": #"{"app": "t", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}}"#,
            "home.json": screen,
            "main.js": script,
        ])
        let load = BundleFolder.open(folder.path)
        XCTAssertEqual(load.formattedDiagnostics, [])
        try app.load(bundle: XCTUnwrap(load.value))
    }
}
