import HybridJSON
import HybridJavaScript
import XCTest

/// `JavaScriptContext.enter`: one time limit per entry, whatever the entry runs (issue 11).
final class EntryTests: XCTestCase {
    /// A getter read twice in one entry: JavaScriptCore cleared the first stop and let the
    /// second read run with no limit at all. The stop now holds until the entry ends.
    func testAStopHoldsUntilTheEntryEnds() throws {
        let context = JavaScriptContext()
        context.limitExecutionTime(to: 0.1)
        let value = try context.evaluate("({ get spin() { while (true) {} } })")
        let outcome = context.enter { () throws(ScriptError) in
            _ = value.json
            return value.json
        }
        XCTAssertEqual(outcome.runaway?.isTermination, true)
        XCTAssertEqual(outcome.runaway?.location, "<eval>:1:1", "where the stopped getter begins")
        XCTAssertEqual(try context.enter { () throws(ScriptError) in try context.evaluate("6 * 7").json }.result.get(), .integer(42),
                       "the next entry has the whole limit again")
    }

    /// A job that queues the next for ever, from `then`: stopped only where scripts queue jobs
    /// (the bridge's prelude checks `isOverBudget`); here the engine's own limit stops the
    /// first long job, and nothing it queued runs into the next entry.
    func testJobsLeftByAStoppedDrainDoNotRunIntoTheNextEntry() throws {
        let context = JavaScriptContext()
        context.limitExecutionTime(to: 0.1)
        let outcome = context.enter { () throws(ScriptError) in
            _ = try context.evaluate("globalThis.runs = 0; Promise.resolve().then(function spin() { runs += 1; Promise.resolve().then(spin); while (true) {} })")
        }
        XCTAssertNotNil(outcome.runaway)
        XCTAssertEqual(outcome.runaway?.stack.first, "spin@<eval>:1:1")
        // The job it queued was stopped before that entry ended (at once, or after the 1 ms the
        // limit then allows): the chain is dead, whichever.
        let runs = try context.enter { () throws(ScriptError) in try context.evaluate("runs").json }.result.get()
        XCTAssertEqual(try context.enter { () throws(ScriptError) in try context.evaluate("runs").json }.result.get(), runs)
        XCTAssertTrue(runs == .integer(1) || runs == .integer(2), "\(runs)")
    }

    /// A NUL byte ended the script there (a C string), and the rest never ran nor failed.
    func testANulByteIsPartOfTheScript() {
        let context = JavaScriptContext()
        XCTAssertThrowsError(try context.evaluate("1;\n\u{0}\n2", sourceURL: "nul.js")) { error in
            XCTAssertEqual((error as? ScriptError)?.location, "nul.js:2:1")
        }
        XCTAssertEqual(context.makeString("a\u{0}b").string, "a\u{0}b")
    }

    /// Strings reach JavaScript as their UTF-16 code units, whatever comes first in them: ASCII
    /// (in runs of any length), two- and three-byte UTF-8, and symbols past the BMP (a surrogate
    /// pair each).
    func testTextReachesJavaScriptAsItsUTF16() throws {
        let context = JavaScriptContext()
        // ASCII runs go eight bytes at a time: runs of 7, 8, 9 and 17, cut by other scalars.
        let runs = ["1234567é", "12345678é", "123456789🎉", "12345678901234567中", "\u{0}1234567\u{0}"]
        for text in ["", "plain", "é", "héllo", "ab中文", "🎉", "x🎉y", "数据 · data · 🧪\u{0}end", runs.joined()] + runs {
            let value = context.makeString(text)
            XCTAssertEqual(value.string, text)
            context.set("probe", to: value)
            XCTAssertEqual(try context.evaluate("probe.length").json, .integer(text.utf16.count), text)
            XCTAssertEqual(try context.evaluate("Array.from(probe).length").json, .integer(text.unicodeScalars.count), text)
        }
        let script = "'中文 🎉'.length + ' ' + '中文 🎉'.codePointAt(3).toString(16)"
        XCTAssertEqual(try context.evaluate(script).json, .string("5 1f389"))
        // Each UTF-8 length's first and last scalar, and those around the surrogates, arrive as
        // the code points they are (the decoding is by hand).
        let edges: [UInt32] = [0x1, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF]
        let text = String(String.UnicodeScalarView(edges.compactMap(Unicode.Scalar.init)))
        context.set("edges", to: context.makeString(text))
        XCTAssertEqual(try context.evaluate("Array.from(edges, (c) => c.codePointAt(0).toString(16)).join(' ')").json,
                       .string(edges.map { String($0, radix: 16) }.joined(separator: " ")))
    }

    /// A JavaScript string may hold half of a surrogate pair, which no Swift string can: it comes
    /// out as U+FFFD, as `TextEncoder` makes it, with all the text around it (the engine's own
    /// conversion ended the text there: a stored value, a key or an error message was cut).
    func testALoneSurrogateBecomesAReplacementCharacterAndTheRestOfTheTextStays() throws {
        let context = JavaScriptContext()
        let cases: [(String, String)] = [
            ("'ab\\uD800cd'", "ab\u{FFFD}cd"), ("'\\uDC00'", "\u{FFFD}"), ("'é\\uD800'", "é\u{FFFD}"),
            ("'x\\uDBFF\\uDBFF🎉y'", "x\u{FFFD}\u{FFFD}🎉y"), ("'\\uD83C\\uDF89'", "🎉"),
            ("'中'.repeat(100) + '\\uDFFF' + 'end'", String(repeating: "中", count: 100) + "\u{FFFD}end"),
        ]
        for (script, expected) in cases {
            XCTAssertEqual(try context.evaluate(script).string, expected, script)
        }
        let keys = try context.evaluate("({ 'x\\uD800': 1, x: 2 })")
        XCTAssertEqual(context.json(from: keys), .object(JSONObject([("x\u{FFFD}", .integer(1)), ("x", .integer(2))])))
        XCTAssertThrowsError(try context.evaluate("throw new Error('\\uD800 the real reason')")) { error in
            XCTAssertEqual((error as? ScriptError)?.message, "Error: \u{FFFD} the real reason")
        }
    }

    /// `JSON.stringify` throws for a BigInt, and so does the conversion of what must arrive whole.
    func testStrictConversionRefusesABigInt() throws {
        let context = JavaScriptContext()
        let value = try context.evaluate("({ big: 10n ** 30n })")
        XCTAssertThrowsError(try context.strictJSON(from: value)) { error in
            XCTAssertEqual((error as? JSONConversionError)?.description, "$.big is a BigInt, which JSON cannot hold (use a number or a string)")
        }
    }

    /// A script's error is printed to a developer's terminal: what it put in its message can
    /// neither drive the terminal (ESC, BEL) nor start a line that looks like another report.
    func testAnErrorsReportShowsControlCharactersAsEscapes() {
        let context = JavaScriptContext()
        XCTAssertThrowsError(try context.evaluate("throw new Error('\\x1b]0;title\\x07 first\\nother.js:1:1: forged')", sourceURL: "e.js")) { error in
            guard let error = error as? ScriptError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.description, "e.js:1:16: Error: \\u{1B}]0;title\\u{7} first\\nother.js:1:1: forged")
            XCTAssertFalse(error.report.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, error.report)
            XCTAssertEqual(error.report.split(separator: "\n").first.map(String.init), error.description)
        }
    }

    func testBareThrownValuesAreDescribed() {
        let context = JavaScriptContext()
        let messages = ["throw Symbol('s')", "throw { toString() { throw new Error('no') } }", "throw { toString() { return '' } }", "throw null"].map { script in
            do throws(ScriptError) {
                try context.evaluate(script)
                return "no throw"
            } catch {
                return error.message
            }
        }
        XCTAssertEqual(messages, ["uncaught Symbol(s)", "an object whose toString threw (Error: no)", "an object that reads as an empty string", "uncaught null"])
    }

    func testStrictConversionNamesCyclesAndDepth() throws {
        let context = JavaScriptContext()
        let cyclic = try context.evaluate("const a = { list: [1, {}] }; a.list[1].back = a; a")
        XCTAssertThrowsError(try context.strictJSON(from: cyclic)) { error in
            XCTAssertEqual((error as? JSONConversionError)?.path, "$.list[1].back")
        }
        XCTAssertEqual(context.json(from: cyclic), .object(JSONObject([("list", .array([.integer(1), .object(JSONObject([("back", .null)]))]))])))
        let deep = try context.evaluate("let v = 0; for (let i = 0; i < 513; i++) v = [v]; v")
        XCTAssertThrowsError(try context.strictJSON(from: deep))
        let deepest = try context.evaluate("let w = 0; for (let i = 0; i < 512; i++) w = [w]; w")
        XCTAssertNoThrow(try context.strictJSON(from: deepest))
    }
}
