import Foundation
import TestSupport
import XCTest

/// `hybrid eval` as SPEC §6 describes it, through the real binary.
final class EvalCommandTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory("hybrid-eval")
    }

    func eval(_ source: String, name: String = "main.js", arguments: [String] = []) throws -> CommandRunner.Result {
        let script = folder.appendingPathComponent(name)
        try source.write(to: script, atomically: true, encoding: .utf8)
        return try CommandRunner.hybrid(["eval", script.path] + arguments,
                                        environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path])
    }

    /// A one-letter name given bare trapped in Foundation's path methods (exit 132).
    func testAScriptWithAOneLetterNameInTheCurrentFolderRuns() throws {
        try "console.log(require('./m').x)".write(to: folder.appendingPathComponent("k"), atomically: true, encoding: .utf8)
        try "module.exports = { x: 'ok' }".write(to: folder.appendingPathComponent("m.js"), atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out")
        let errors = folder.appendingPathComponent("err")
        let process = try CommandRunner.start("hybrid", ["eval", "k"], in: folder,
                                              environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path],
                                              output: output, errors: errors)
        process.waitUntilExit()
        let reported = try String(contentsOf: errors, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 0, reported)
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "ok\n")
    }

    func testConsoleGoesToStdoutAndStderrAndTimersRunToTheEnd() throws {
        let result = try eval("""
        console.log('one');
        console.warn('careful');
        setTimeout(() => console.info('later'), 30);
        hybrid.call('device.info').then((info) => console.log(info.platform, typeof info.columns, info.runtime));
        """)
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput, "one\nlinux number HybridTerm/0.1.0\nlater\n")
        XCTAssertEqual(result.standardError, "careful\n")
    }

    /// SPEC §3's URL and URLSearchParams, as a script would use them to build an API call.
    func testAScriptBuildsAndReadsURLsWithURLAndURLSearchParams() throws {
        let result = try eval("""
        const url = new URL('../items?page=2', 'https://api.example.com/v1/shop/');
        url.searchParams.append('q', 'blue shoes & socks');
        url.searchParams.set('page', '3');
        console.log(url.href);
        console.log(url.host, url.pathname, url.search);
        const query = new URLSearchParams({ sort: 'price', dir: 'desc' });
        query.sort();
        console.log(query.toString(), [...query.keys()].join(','));
        try { new URL('not a url'); } catch (error) { console.log(error.name + ': ' + error.message); }
        console.log(new URL('https://Bücher.example/').hostname);
        """)
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput, """
        https://api.example.com/v1/items?page=3&q=blue+shoes+%26+socks
        api.example.com /v1/items ?page=3&q=blue+shoes+%26+socks
        dir=desc&sort=price dir,sort
        TypeError: Invalid URL: not a url
        xn--bcher-kva.example

        """)
        XCTAssertEqual(result.standardError, "")
    }

    func testAnUncaughtExceptionExitsWithOneAndItsLocation() throws {
        let result = try eval("console.log('before');\nundefinedFunction();\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardOutput, "before\n")
        XCTAssertTrue(result.standardError.hasPrefix(folder.appendingPathComponent("main.js").path + ":2:18: ReferenceError: Can't find variable: undefinedFunction\n"), result.standardError)
    }

    func testAnUnhandledRejectionExitsWithOne() throws {
        let result = try eval("hybrid.call('storage.get', { key: 42 });\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.standardError.contains(#"unhandled promise rejection: Error: storage.get: field "key": expected a string, got 42"#), result.standardError)
    }

    func testARunawayScriptIsStoppedAndExitsWithOne() throws {
        let result = try eval("console.log('start');\nwhile (true) {}\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardOutput, "start\n")
        XCTAssertTrue(result.standardError.contains("ran longer than the 1 s limit"), result.standardError)
    }

    func testStoragePersistsAcrossProcessesPerApp() throws {
        let write = try eval("hybrid.call('storage.set', { key: 'visits', value: { n: 1 } }).then(() => console.log('saved'));", arguments: ["--app", "shop"])
        XCTAssertEqual(write.status, 0, write.standardError)
        let read = try eval("""
        hybrid.call('storage.get', { key: 'visits' }).then((v) => console.log(JSON.stringify(v)));
        """, name: "read.js", arguments: ["--app", "shop"])
        XCTAssertEqual(read.standardOutput, #"{"n":1}"# + "\n")
        let other = try eval("hybrid.call('storage.keys').then((k) => console.log(JSON.stringify(k)));", name: "other.js")
        XCTAssertEqual(other.standardOutput, "[]\n", "another app has its own storage")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("data/hybridterm/shop/storage.json").path))
    }

    func testRequireResolvesInsideTheScriptsFolder() throws {
        try "exports.answer = 42;".write(to: folder.appendingPathComponent("lib.js"), atomically: true, encoding: .utf8)
        let result = try eval("console.log(require('./lib').answer);")
        XCTAssertEqual(result.standardOutput, "42\n")
    }

    func testAMissingScriptIsAUserError() throws {
        let result = try CommandRunner.hybrid(["eval", "no/such.js"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardError, "no/such.js: cannot read the script: no such file or directory\n")
    }
}

extension EvalCommandTests {
    func testEvalWaitsForPendingCallsAndRejectsABadApp() throws {
        let badApp = try CommandRunner.hybrid(["eval", "x.js", "--app", "../escape"])
        XCTAssertEqual(badApp.status, 2)
        XCTAssertTrue(badApp.standardError.contains("--app"), badApp.standardError)
        let result = try eval("""
        setTimeout(() => console.log('timer'), 50);
        hybrid.call('device.info').then(() => new Promise((r) => setTimeout(r, 50))).then(() => console.log('chained'));
        """)
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput, "timer\nchained\n")
    }
}
