import CJavaScriptCore
import HybridJSON
import HybridJavaScript
import XCTest

final class JavaScriptContextTests: XCTestCase {
    func testEvaluatesWithTheRealEngine() throws {
        let context = JavaScriptContext()
        XCTAssertEqual(try context.evaluate("[1, 2, 3].map(x => x * 2).join(',')").string, "2,4,6")
        XCTAssertEqual(try context.evaluate("typeof Promise").string, "function")
    }

    func testThrownErrorsAreLocatedWithTheirStack() {
        let context = JavaScriptContext()
        XCTAssertThrowsError(try context.evaluate("function f() {\n  return null.x;\n}\nf();", sourceURL: "boom.js")) { error in
            let scriptError = error as? ScriptError
            XCTAssertEqual(scriptError?.location, "boom.js:2:14")
            XCTAssertTrue(scriptError?.message.hasPrefix("TypeError") ?? false, "\(error)")
            XCTAssertEqual(scriptError?.stack.first, "f@boom.js:2:14")
        }
        // The context stays usable after an exception.
        XCTAssertEqual(context.json(from: try context.evaluate("40 + 2")), .integer(42))
    }

    func testAStackOverflowReportsItsRepeatedFrameOnce() {
        let context = JavaScriptContext()
        do {
            try context.evaluate("function down(n) { return down(n + 1) + 1; }\ndown(0);", sourceURL: "deep.js")
            XCTFail("the recursion must overflow")
        } catch {
            let lines = error.report.split(separator: "\n")
            XCTAssertTrue(lines[0].hasPrefix("deep.js:1:"), error.report)
            XCTAssertLessThan(lines.count, 6, "one line per distinct frame: \(error.report)")
            XCTAssertTrue(lines.contains { $0.hasPrefix("    at down@deep.js:1:") && $0.hasSuffix(" times)") }, error.report)
        }
    }

    func testJSONValuesCrossBothWays() throws {
        let context = JavaScriptContext()
        let value = try JSONParser.parse(#"{"s":"é漢🚀\n","i":-7,"n":0.25,"b":true,"z":null,"a":[1,[2,{}],"x"],"o":{"p":{"q":[]}}}"#).plain
        context.set("value", to: context.makeValue(value))
        XCTAssertEqual(context.json(from: try context.evaluate("value")), value)
        XCTAssertEqual(try context.evaluate("JSON.stringify(value)").string, value.jsonText)
        let odd = context.json(from: try context.evaluate("({ f() {}, u: undefined, inf: Infinity, d: new Date(0), big: 2 ** 60 })"))
        XCTAssertEqual(odd.jsonText, #"{"inf":null,"d":"1970-01-01T00:00:00.000Z","big":1.152921504606847e+18}"#)
        let cycle = context.json(from: try context.evaluate("const c = { name: 'c' }; c.self = c; c"))
        XCTAssertEqual(cycle.jsonText, #"{"name":"c","self":null}"#)
    }

    func testHostFunctionsReceiveArgumentsAndThrowIntoScripts() throws {
        let context = JavaScriptContext()
        // At the C level, for fast paths.
        context.define("add") { context, _, arguments in
            JSValueMakeNumber(context, arguments.reduce(0) { $0 + JSValueToNumber(context, $1, nil) })
        }
        // At the Swift level: a message object read by name, arguments past the last undefined.
        context.globalObject.define("greet") { arguments throws(ScriptThrow) in
            let message = arguments[0]
            guard arguments[1].isUndefined, message["name"].kind == .string else {
                throw ScriptThrow(arguments.context.makeError("refused", code: "E_DENIED"))
            }
            return arguments.context.makeString("Hello, \(message["name"].string) x\(Int(message["times"].number))")
        }
        XCTAssertEqual(context.json(from: try context.evaluate("add(1, 2, 39)")), .integer(42))
        XCTAssertEqual(try context.evaluate("greet({ name: 'Ada', times: 2 })").string, "Hello, Ada x2")
        XCTAssertEqual(try context.evaluate("try { greet({ name: 7 }) } catch (e) { e.code + ' ' + e.message }").string, "E_DENIED refused")
    }

    func testValuesAreReadAndCalledFromSwift() throws {
        let context = JavaScriptContext()
        let object = try context.evaluate("({ list: [1, 2], f(a, b) { return a + b; }, flag: 0, text: 'x' })")
        XCTAssertEqual(object.kind, .object)
        XCTAssertTrue(object["list"].isArray)
        XCTAssertTrue(object["f"].isFunction)
        XCTAssertFalse(object["flag"].boolean)
        XCTAssertTrue(object["missing"].isUndefined)
        XCTAssertEqual(try object["f"].call(making: [{ context.makeNumber(40) }, { context.makeNumber(2) }]).json, .integer(42))
        object.set("added", to: context.makeBoolean(true))
        XCTAssertEqual(object["added"].json, .bool(true))
        XCTAssertThrowsError(try object["text"].call()) { error in
            XCTAssertEqual((error as? ScriptError)?.message, "TypeError: x is not a function")
        }
        XCTAssertThrowsError(try context.evaluate("(() => { throw new RangeError('too far'); })").call()) { error in
            XCTAssertEqual((error as? ScriptError)?.message, "RangeError: too far")
        }
    }

    /// Recent strings give a value's text as `string` does, the first time and every time
    /// after, also once more names have come than it keeps.
    func testRecentStringsGiveTheValuesText() throws {
        let context = JavaScriptContext()
        let names = RecentStrings(context: context)
        let values = try (0..<RecentStrings.capacity + 4).map { try context.evaluate("'service.n\($0)'") }
        for _ in 0..<3 {
            for (index, value) in values.enumerated() { XCTAssertEqual(names.string(of: value), "service.n\(index)") }
        }
        let odd = try context.evaluate("'a\\u0000b é 😀'")
        XCTAssertEqual(names.string(of: odd), odd.string)
        XCTAssertEqual(names.string(of: odd), "a\u{0}b é 😀")
        XCTAssertEqual(names.string(of: context.makeNumber(5)), "5")
        XCTAssertEqual(names.string(of: try context.evaluate("'service.n0'")), "service.n0", "an equal string made anew")
    }

    func testProtectedValuesSurviveCollection() throws {
        let context = JavaScriptContext()
        var kept: [ProtectedValue] = []
        for index in 0..<100 {
            kept.append(try context.evaluate("({ index: \(index), payload: 'x'.repeat(1000) })").protect())
        }
        context.collectGarbage()
        XCTAssertEqual(kept.map { context.json(from: $0.value)["index"] }, (0..<100).map { .integer($0) })
    }

    func testTheTimeLimitStopsARunawayScriptAndTheContextGoesOn() throws {
        let context = JavaScriptContext()
        context.limitExecutionTime(to: 0.1)
        XCTAssertThrowsError(try context.evaluate("try { while (true) {} } catch (e) {}")) { error in
            XCTAssertTrue((error as? ScriptError)?.isTermination ?? false, "\(error)")
        }
        XCTAssertEqual(context.json(from: try context.evaluate("'still alive'")), .string("still alive"))
    }

    /// Conversions hold the engine's lock for their burst of engine calls. Inside a host
    /// function, a getter one runs can queue a job, and so can a nested script, and both jobs
    /// still wait for the end of the outer script rather than running when the lock is let go.
    func testJobsQueuedInsideHostFunctionsWaitForTheOuterScript() throws {
        let context = JavaScriptContext()
        context.define("nested") { ref, _, _ in
            if let probe = try? context.evaluate("probe") { _ = context.json(from: probe) }
            _ = try? context.evaluate("Promise.resolve().then(() => order.push('nested job')); order.push('nested')")
            return JSValueMakeNumber(ref, 1)
        }
        _ = try context.evaluate("""
        globalThis.order = [];
        globalThis.probe = { get field() { Promise.resolve().then(() => order.push('getter job')); order.push('getter'); return 1; } };
        nested(); order.push('after')
        """)
        XCTAssertEqual(try context.evaluate("order").json,
                       .array(["getter", "nested", "after", "getter job", "nested job"].map(JSONValue.string)))
    }
}

final class JSValueDecoderTests: XCTestCase {
    struct Order: Codable, Equatable {
        var id: Int
        var items: [Line]
        var note: String?
        var tags: [String: Bool]
        struct Line: Codable, Equatable {
            var sku: String
            var qty: UInt8
            var price: Double
        }
    }

    func testDecodesStraightFromJavaScriptObjects() throws {
        let context = JavaScriptContext()
        let decoder = JSValueDecoder(context: context)
        let value = try context.evaluate("({ id: 7, items: [{ sku: 'a', qty: 2, price: 1.5 }], tags: { gift: true } })")
        XCTAssertEqual(try decoder.decode(Order.self, from: value),
                       Order(id: 7, items: [.init(sku: "a", qty: 2, price: 1.5)], note: nil, tags: ["gift": true]))
    }

    func testMismatchesThrowSoCallersCanFallBack() throws {
        let context = JavaScriptContext()
        let decoder = JSValueDecoder(context: context)
        for source in ["({ id: 1.5, items: [], tags: {} })", "({ id: 1, items: [{ sku: 'a', qty: 300, price: 1 }], tags: {} })",
                       "([1, 2])", "({ id: 1, items: {}, tags: {} })", "({ id: 1, items: [], tags: [true] })"] {
            XCTAssertThrowsError(try decoder.decode(Order.self, from: context.evaluate(source)), source)
        }
    }

    /// Fields a script read already, given as values in the order of their names: nothing is
    /// read from the object itself, absent and undefined fields are missing, nested values
    /// decode as usual, and a mismatch still throws.
    func testDecodesFieldsAScriptReadInOrder() throws {
        let context = JavaScriptContext()
        let decoder = JSValueDecoder(context: context)
        _ = try context.evaluate("globalThis.kept = [7, [{ sku: 'a', qty: 2, price: 1.5 }], undefined, { gift: true }, '7']")
        let values = try (0..<5).map { try context.evaluate("kept[\($0)]").ref as JSValueRef? }
        let empty = try context.evaluate("({})")
        let names = ["id", "items", "note", "tags"]
        try values.withUnsafeBufferPointer { values in
            let order = try decoder.decode(Order.self, from: empty, fields: names, values: UnsafeBufferPointer(rebasing: values[0..<4]))
            XCTAssertEqual(order, Order(id: 7, items: [.init(sku: "a", qty: 2, price: 1.5)], note: nil, tags: ["gift": true]))
            // The id as the string "7": a mismatch, for the caller's exact error.
            let wrong = [values[4], values[1], values[2], values[3]]
            try wrong.withUnsafeBufferPointer { wrong in
                XCTAssertThrowsError(try decoder.decode(Order.self, from: empty, fields: names, values: wrong))
            }
            // A field not given at all is missing.
            XCTAssertThrowsError(try decoder.decode(Order.self, from: empty, fields: Array(names.dropFirst()),
                                                    values: UnsafeBufferPointer(rebasing: values[1..<4])))
        }
    }

    /// A type whose `init(from:)` decodes another value with the same decoder, between two of
    /// its own fields, still reads its own fields from what its script read, not the other's.
    func testDecodingSomethingElseMidwayKeepsTheFieldsAScriptRead() throws {
        struct Pair: Decodable, Equatable {
            nonisolated(unsafe) static var meanwhile: (() throws -> Void)?
            var first: Int
            var second: Int
            enum CodingKeys: CodingKey { case first, second }
            init(first: Int, second: Int) { (self.first, self.second) = (first, second) }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                first = try container.decode(Int.self, forKey: .first)
                try Self.meanwhile?()
                second = try container.decode(Int.self, forKey: .second)
            }
        }
        struct Other: Decodable { var second: Int }
        let context = JavaScriptContext()
        let decoder = JSValueDecoder(context: context)
        let empty = try context.evaluate("({})")
        let values: [JSValueRef?] = [try context.evaluate("1").ref, try context.evaluate("2").ref]
        let others: [JSValueRef?] = [try context.evaluate("99").ref]
        Pair.meanwhile = {
            try others.withUnsafeBufferPointer { others in
                XCTAssertEqual(try decoder.decode(Other.self, from: empty, fields: ["second"], values: others).second, 99)
            }
        }
        defer { Pair.meanwhile = nil }
        try values.withUnsafeBufferPointer { values in
            XCTAssertEqual(try decoder.decode(Pair.self, from: empty, fields: ["first", "second"], values: values), Pair(first: 1, second: 2))
        }
    }

    func testHostFunctionsAndProtectedValuesAreReleased() throws {
        final class Token: @unchecked Sendable {}
        weak var released: Token?
        do {
            let context = JavaScriptContext()
            let token = Token()
            released = token
            context.define("hold") { _, _, _ in
                _ = token
                return nil
            }
            let kept = try context.evaluate("({ big: 'x'.repeat(1000) })").protect()
            XCTAssertEqual(context.json(from: kept.value)["big"]?.stringValue?.count, 1000)
        }
        XCTAssertNil(released, "the function's closure went with its context")
    }
}
