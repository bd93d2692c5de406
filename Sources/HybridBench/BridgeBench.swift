import CJavaScriptCore
import HybridTerm

/// Bridge figures: a sync service call against raw JavaScriptCore callbacks that read the
/// same fields by hand, and awaited async calls, in one run (BENCHMARKS.md, "The JavaScriptCore
/// bridge").
enum BridgeBench {
    struct Item: Codable, Sendable {
        var sku: String
        var price: Double
        var qty: Int
    }

    /// The property names the C-level reference reads, made before it runs: a C callback
    /// captures nothing.
    nonisolated(unsafe) static var names: (sku: JSStringRef, price: JSStringRef, qty: JSStringRef)?

    /// What a binding written against JavaScriptCore's C API alone does, and the goal's
    /// reference: read the three fields by cached names and answer a number. Every engine call
    /// takes the engine's lock afresh, as the engine drops it around a callback.
    // A JSClassRef is immutable once created.
    nonisolated(unsafe) static let rawClass: JSClassRef = {
        var definition = kJSClassDefinitionEmpty
        definition.callAsFunction = { context, _, _, count, arguments, _ in
            guard let context, count > 0, let arguments, let names,
                  let object = JSValueToObject(context, arguments[0], nil) else { return nil }
            let sku = JSValueToStringCopy(context, JSObjectGetProperty(context, object, names.sku, nil), nil)
            defer { sku.map(JSStringRelease) }
            let skuText = sku.map(JavaScriptContext.string) ?? ""
            let price = JSValueToNumber(context, JSObjectGetProperty(context, object, names.price, nil), nil)
            let qty = JSValueToNumber(context, JSObjectGetProperty(context, object, names.qty, nil), nil)
            return JSValueMakeNumber(context, skuText.isEmpty ? 0 : price * qty)
        }
        return JSClassCreate(&definition)
    }()

    /// `--profile-sync-calls N [raw]`: `N` calls of `hybrid.callSync('bench.total', {…})` (or
    /// of the raw callback, the reference) and nothing else, for a profiler to count
    /// (`valgrind --tool=callgrind --smc-check=all`), less a run with 0, divided by `N`.
    static func profile(calls: Int, raw: Bool) {
        let runtime = ScriptRuntime(services: registry(), timeLimit: 600)
        installRawCallback(in: runtime.context)
        runtime.evaluate(loopScript)
        runtime.evaluate("loop(\(raw ? "rawAPI" : "(item) => hybrid.callSync('bench.total', item)"), \(calls))")
        print("made \(calls) \(raw ? "raw" : "sync") calls")
    }

    /// Defines the global `rawAPI`, the reference (`rawClass`). Its names are kept for the
    /// rest of the process.
    private static func installRawCallback(in context: JavaScriptContext) {
        func name(_ text: String) -> JSStringRef { JSStringCreateWithCharacters(Array(text.utf16), text.utf16.count) }
        names = (name("sku"), name("price"), name("qty"))
        let global = name("rawAPI")
        defer { JSStringRelease(global) }
        JSObjectSetProperty(context.ref, JSContextGetGlobalObject(context.ref), global, JSObjectMake(context.ref, rawClass, nil), 0, nil)
    }

    /// The services the figures call.
    private static func registry() -> ServiceRegistry {
        let services = ServiceRegistry()
        services.register("bench.total") { (item: Item) in item.price * Double(item.qty) }
        // What a sync call costs besides decoding its parameters: the prelude, the engine's
        // call, the registry and the answer.
        services.register("bench.none") { (_: Empty) in 7.5 }
        services.register("bench.later") { (item: Item) async in item.qty }
        services.register("bench.waits") { (item: Item) async in
            await Task.yield()
            return item.qty
        }
        return services
    }

    /// `loop(call, n)`: calls `call` with the same three-field object `n` times.
    private static let loopScript = """
        globalThis.loop = (call, n) => {
          const item = { sku: 'tea', price: 2.5, qty: 3 };
          let sum = 0;
          for (let i = 0; i < n; i++) sum += call(item);
          return sum;
        };
        """

    static func run() {
        let runtime = ScriptRuntime(services: registry(), timeLimit: 600)
        let context = runtime.context
        installRawCallback(in: context)
        let decoder = JSValueDecoder(context: context)
        let (skuName, priceName, qtyName) = (decoder.name("sku"), decoder.name("price"), decoder.name("qty"))
        // The same reading through HybridTerm's host functions (`define`), which hold the
        // engine's lock while the Swift body runs, so its engine calls do not take it afresh.
        context.define("rawFields") { ref, _, arguments in
            guard let object = JSValueToObject(ref, arguments[0]!, nil) else { return nil }
            let sku = context.string(JSObjectGetProperty(ref, object, skuName, nil)!)
            let price = JSValueToNumber(ref, JSObjectGetProperty(ref, object, priceName, nil)!, nil)
            let qty = JSValueToNumber(ref, JSObjectGetProperty(ref, object, qtyName, nil)!, nil)
            return JSValueMakeNumber(ref, sku.isEmpty ? 0 : price * qty)
        }
        // The same conversion as a service call (parameters decoded in place into the Swift
        // struct, the result made a JavaScript value), without the registry and the prelude.
        context.define("rawConverted") { ref, _, arguments in
            let item = try? decoder.decode(Item.self, from: arguments[0]!)
            return JSValueMakeNumber(ref, (item?.price ?? 0) * Double(item?.qty ?? 0))
        }
        runtime.evaluate(loopScript)
        // The five take turns in each round: their ratios are taken per round.
        let calls = 100_000
        let rounds = 9
        let expressions = ["(item) => hybrid.callSync('bench.total', item)", "rawAPI", "rawFields", "rawConverted",
                           "() => hybrid.callSync('bench.none', null)"]
        let samples = Bench.measureInRounds(rounds, expressions.map { expression in { runtime.evaluate("loop(\(expression), \(calls))") } })
        let (service, raw, fields, converted, bare) = (samples[0], samples[1], samples[2], samples[3], samples[4])
        /// Nanoseconds per call, the median of the rounds.
        func perCall(_ samples: [Double]) -> Double { Bench.median(samples) * 1e6 / Double(calls) }
        func line(_ label: String, _ nanoseconds: Double) {
            print("  " + label.padding(toLength: 56, withPad: " ", startingAt: 0) + String(format: "%6.0f ns", nanoseconds))
        }
        func ratio(of figure: [Double], to reference: [Double], _ name: String) -> String {
            let ratio = Bench.medianRatio(figure, to: reference)
            return String(format: "%.2fx %@ (%.2f-%.2f)", ratio.median, name, ratio.low, ratio.high)
        }
        print("JavaScriptCore bridge, per call (medians of \(rounds) rounds of \(calls) calls, the five in turn; ratios per round)")
        line("raw callback, C API only, fields read by hand", perCall(raw))
        line("the same as a host function (define)", perCall(fields))
        line("host function decoding the same struct (JSValueDecoder)", perCall(converted))
        line("hybrid.callSync('bench.total', {…})", perCall(service))
        print("    " + [ratio(of: service, to: raw, "the raw callback"), ratio(of: service, to: fields, "the host function"),
                        ratio(of: service, to: converted, "the decoding one")].joined(separator: ", "))
        line("hybrid.callSync('bench.none', null), no parameters", perCall(bare))
        print("    " + ratio(of: bare, to: raw, "the raw callback") + ": the call without decoding parameters")
        print("  sync calls per second                                   \(String(format: "%8.0f", 1e9 / perCall(service)))")

        let chained = 2_000
        runtime.evaluate("""
        globalThis.chain = async (service, n) => { let s = 0; for (let i = 0; i < n; i++) s += await hybrid.call(service, { sku: 'a', price: 1, qty: 1 }); return s; };
        """)
        func awaited(_ service: String) -> Double {
            Bench.measure(runs: 5) {
                runtime.evaluate("chain('\(service)', \(chained))")
                runtime.loop.run(untilIdle: true)
            } * 1e6 / Double(chained)
        }
        // An async service that answers without waiting answers inside the call; one that
        // waits (here for one turn of the loop) is settled from the loop in an entry of its own.
        line("await hybrid.call, async service answering at once", awaited("bench.later"))
        line("await hybrid.call, async service waiting once", awaited("bench.waits"))

        let before = Bench.residentMegabytes()
        for _ in 0..<10 { runtime.evaluate("loop((item) => hybrid.callSync('bench.total', item), 100000)") }
        context.collectGarbage()
        let after = Bench.residentMegabytes()
        print("  resident memory before / after 1,000,000 calls  \(String(format: "%.1f", before)) / \(String(format: "%.1f", after)) MB")
    }
}
