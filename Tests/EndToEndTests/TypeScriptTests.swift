import Foundation
import TestSupport
import XCTest

/// The script declarations (`types/hybridterm.d.ts`, issue 15) checked by the TypeScript
/// compiler as an editor does: every sample script type-checks against them, every global's
/// declared surface is used once (`types/tests/globals.ts`), and a wrong call fails naming its
/// line. `tsc` is Debian's `node-typescript`, which `scripts/setup-tests.sh` installs.
final class TypeScriptTests: XCTestCase {
    /// `samples/**/*.js`, each with `// @ts-check` first, with no error under the compiler
    /// options a bundle's `jsconfig.json` uses (`types/jsconfig.samples.json`).
    func testEverySampleScriptTypeChecks() throws {
        let samples = CommandRunner.repository.appendingPathComponent("samples")
        let scripts = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: samples.path)).filter { $0.hasSuffix(".js") }.sorted()
        XCTAssertFalse(scripts.isEmpty)
        for script in scripts {
            let text = try String(contentsOf: samples.appendingPathComponent(script), encoding: .utf8)
            XCTAssertTrue(text.hasPrefix("// @ts-check\n"), "samples/\(script) starts with // @ts-check, so editors check it too")
        }
        let result = try tsc(["-p", "types/jsconfig.samples.json", "--listFiles"])
        XCTAssertEqual(result.status, 0, "tsc found errors in the samples:\n\(result.output)")
        let checked = Set(result.output.split(separator: "\n").filter { !$0.contains(": error ") }.map { String($0) })
        for script in scripts {
            XCTAssertTrue(checked.contains(samples.appendingPathComponent(script).path), "tsc checked samples/\(script):\n\(result.output)")
        }
    }

    /// `types/tests/globals.ts` uses every declared global once under `strict`, and its
    /// `@ts-expect-error` lines are misuses the declarations must refuse.
    func testEveryGlobalIsDeclared() throws {
        let result = try tsc(["-p", "types/tests/tsconfig.json"])
        XCTAssertEqual(result.status, 0, "tsc found errors in types/tests/globals.ts:\n\(result.output)")
        XCTAssertEqual(result.output, "")
    }

    /// A bundle of its own, set up as an author would (a `jsconfig.json` taking the samples'
    /// options and naming the declarations): wrong calls are errors at their lines, and an entry
    /// script's top-level `await` and a CommonJS module are not.
    func testWrongCallsFailTheCheckAtTheirLines() throws {
        let bundle = try makeTemporaryDirectory("hybrid-tsc")
        let types = CommandRunner.repository.appendingPathComponent("types")
        let jsconfig = """
            { "extends": "\(types.appendingPathComponent("jsconfig.samples.json").path)",
              "include": ["*.js", "\(types.appendingPathComponent("hybridterm.d.ts").path)"] }
            """
        try jsconfig.write(to: bundle.appendingPathComponent("jsconfig.json"), atomically: true, encoding: .utf8)
        let wrong = """
            // @ts-check
            const rows = db.query(42);
            hybrid.call('device.info', {}, { timout: 500 });
            store.set('count');
            ui.toast('saved', { level: 'loud' });
            """
        try wrong.write(to: bundle.appendingPathComponent("main.js"), atomically: true, encoding: .utf8)
        let right = """
            // @ts-check
            const { shout } = require('./words.js');
            const response = await fetch('http://127.0.0.1:8099/items');
            store.set('items', (await response.json()).items);
            const answer = await api.call('items.list', { q: shout('tea') }, { signal: AbortSignal.timeout(2000) });
            db.handler('notes', 'update', (change, tx) => tx.exec('UPDATE notes SET n = ? WHERE id = ?', [answer.data.n, change.row.id]));
            """
        try right.write(to: bundle.appendingPathComponent("start.js"), atomically: true, encoding: .utf8)
        let words = "// @ts-check\nmodule.exports = { shout: (/** @type {string} */ text) => text.toUpperCase() };\n"
        try words.write(to: bundle.appendingPathComponent("words.js"), atomically: true, encoding: .utf8)

        let result = try tsc(["-p", bundle.appendingPathComponent("jsconfig.json").path], in: bundle)
        XCTAssertNotEqual(result.status, 0, "tsc accepted wrong calls:\n\(result.output)")
        for located in [
            "main.js(2,23): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'.",
            "main.js(3,34): error TS2345: Argument of type '{ timout: number; }' is not assignable to parameter of type 'CallOptions'.",
            "main.js(4,7): error TS2554: Expected 2 arguments, but got 1.",
            "main.js(5,21): error TS2322: Type '\"loud\"' is not assignable to type '\"info\" | \"warn\" | \"error\"'.",
        ] {
            XCTAssertTrue(result.output.contains(located), "expected \(located) in:\n\(result.output)")
        }
        let errors = result.output.split(separator: "\n").filter { $0.contains(": error TS") }
        XCTAssertEqual(errors.count, 4, "only main.js's four wrong calls are errors:\n\(result.output)")
    }

    /// A bundle made by `hybrid init` checks with its own jsconfig.json: the web developer's
    /// first lines (top-level await fetch into the store) pass, a wrong call fails at its line.
    func testABundleMadeByInitChecksWithItsOwnConfig() throws {
        let bundle = try makeTemporaryDirectory("hybrid-init-tsc").appendingPathComponent("app")
        let made = try CommandRunner.hybrid(["init", bundle.path])
        XCTAssertEqual(made.status, 0, made.standardError)
        let clean = try tsc(["-p", "jsconfig.json"], in: bundle)
        XCTAssertEqual(clean.status, 0, clean.output)
        let main = bundle.appendingPathComponent("main.js")
        let script = try String(contentsOf: main, encoding: .utf8)
            + "const r = await fetch('https://example.com/items'); store.set('items', (await r.json()).items);\n"
            + "store.set('presses');\n"
        try script.write(to: main, atomically: true, encoding: .utf8)
        let checked = try tsc(["-p", "jsconfig.json"], in: bundle)
        let line = script.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        XCTAssertNotEqual(checked.status, 0)
        XCTAssertEqual(checked.output.split(separator: "\n").filter { $0.contains("error TS") }.map { String($0.prefix { $0 != ":" }) },
                       ["main.js(\(line),7)"], checked.output)
    }

    /// Runs `tsc` (from PATH) with `arguments` in `folder` (the repository by default); answers
    /// its exit status and what it printed (its errors go to standard output).
    private func tsc(_ arguments: [String], in folder: URL = CommandRunner.repository) throws -> (status: Int32, output: String) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let executable = path.split(separator: ":").map({ URL(fileURLWithPath: String($0)).appendingPathComponent("tsc") })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            // A failure, never a skip: the check would pass in silence where nothing checked.
            throw MissingCompiler(description: "tsc is not on PATH (\(path)): run scripts/setup-tests.sh, which installs Debian's node-typescript")
        }
        let streams = try makeTemporaryDirectory("hybrid-tsc-output")
        let output = streams.appendingPathComponent("stdout")
        let errors = streams.appendingPathComponent("stderr")
        // --pretty false: one line per error, `FILE(LINE,COL): error TSNNNN: message`.
        let process = try CommandRunner.start(executable: executable, arguments + ["--pretty", "false"], in: folder, output: output, errors: errors)
        process.waitUntilExit()
        let text = try String(contentsOf: output, encoding: .utf8) + String(contentsOf: errors, encoding: .utf8)
        return (process.terminationStatus, text)
    }

    private struct MissingCompiler: Error, CustomStringConvertible {
        var description: String
    }
}
