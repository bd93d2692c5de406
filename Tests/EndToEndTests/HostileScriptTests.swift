import Foundation
import Testing
import TestSupport

/// Hostile scripts (issue 11) through the real binary: loops in every kind of entry, recursion,
/// proxies, cyclic and deep parameters, bad throws, a NUL byte. Each fixture in
/// `Tests/Fixtures/hostile/` says on its first line where its report must be located.
///
/// `hybrid eval` must report it located and exit 1, in a bounded time (never hang); inside a
/// bundle under `hybrid run --headless` (run from a timer after the bundle started), the app
/// must go on: its frame printed and exit status 0. The cases run in parallel: each runaway
/// costs the 1 s time limit.
struct HostileScriptTests {
    static let folder = "Tests/Fixtures/hostile"

    static func fixtures() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: CommandRunner.repository.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".js") }.sorted()
    }

    /// Where the fixture's report may be: `FILE:LINE:` (a header `// reported at line 3`, or
    /// `// reported at line 3, or 4 …` where either is right), or `FILE: ` for bare values thrown
    /// at the top level (they carry no line).
    static func expectedLocations(of fixture: String, at path: String) throws -> [String] {
        let source = try String(contentsOf: CommandRunner.repository.appendingPathComponent("\(folder)/\(fixture)"), encoding: .utf8)
        let header = source.prefix { $0 != "\n" }
        if header.hasPrefix("// reported in the file") { return ["\(path): "] }
        let rest = header.dropFirst("// reported at line ".count)
        guard let line = rest.prefix(while: \.isNumber).nonEmpty else {
            Issue.record("\(fixture): the first line must say where the report is located")
            return [path]
        }
        let other = rest.dropFirst(line.count)
        let alternative = other.hasPrefix(", or ") ? other.dropFirst(", or ".count).prefix(while: \.isNumber).nonEmpty : nil
        return ([line] + (alternative.map { [$0] } ?? [])).map { "\(path):\($0):" }
    }

    @Test func thereAreFixtures() throws {
        #expect(try Self.fixtures().count >= 15)
    }

    @Test(arguments: try fixtures())
    func evalReportsItLocatedAndExitsOne(fixture: String) throws {
        let data = try TemporaryDirectory("hybrid-hostile-data")
        let path = "\(Self.folder)/\(fixture)"
        let result = try BoundedRun.hybrid(["eval", path], environment: ["XDG_DATA_HOME": data.path])
        #expect(result.status == 1, "\(result.standardError)")
        let locations = try Self.expectedLocations(of: fixture, at: path)
        let report = result.standardError.split(separator: "\n").first.map(String.init) ?? ""
        let location = locations.first { report.hasPrefix($0) }
        #expect(location != nil, "\(result.standardError)")
        #expect(report.count > (location ?? "").count + 5, "a message follows the location: \(report)")
        // Reported once: nothing after it is stopped or blamed for it (stack lines aside).
        #expect(result.standardError.split(separator: "\n").filter { !$0.hasPrefix("    at ") }.count == 1, "\(result.standardError)")
    }

    @Test(arguments: try fixtures())
    func aBundleRunningItGoesOn(fixture: String) throws {
        let bundle = try TemporaryDirectory("hybrid-hostile-bundle")
        let data = try TemporaryDirectory("hybrid-hostile-data")
        try FileManager.default.createDirectory(at: bundle.url.appendingPathComponent("screens"), withIntermediateDirectories: true)
        let files = [
            "manifest.json": #"{"app": "hostile", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "screens/home.json"}}"#,
            "screens/home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "still here"}}"#,
            "main.js": "hybrid.ready();\nsetTimeout(() => require('./hostile.js'), 1);\n",
        ]
        for (name, text) in files { try text.write(to: bundle.url.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        try FileManager.default.copyItem(at: CommandRunner.repository.appendingPathComponent("\(Self.folder)/\(fixture)"),
                                         to: bundle.url.appendingPathComponent("hostile.js"))
        let result = try BoundedRun.hybrid(["run", bundle.path, "--headless", "--size", "40x3", "--keys", "wait:50ms"],
                                           environment: ["XDG_DATA_HOME": data.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("still here"), "\(result.standardOutput)")
        // Located in the bundle: in hostile.js, or for bare values at the timer that ran it.
        #expect(result.standardError.split(separator: "\n").contains { $0.hasPrefix(bundle.path + "/") && $0.contains(".js:") },
                "\(result.standardError)")
    }
}

/// Runaways in the entries only an app has: a `ui.handler`, a `state.watch` watcher and a
/// `ui.component` builder, each reported located while the app goes on.
struct HostileAppScriptTests {
    static let cases: [(name: String, script: String, line: Int)] = [
        ("handler", "ui.handler('spin', () => {\n  while (true) {}\n});\nhybrid.ready();\n", 1),
        ("watcher", "ui.handler('spin', () => {\n  state.watch('n', () => {\n    while (true) {}\n  });\n  state.set('n', 1);\n});\nhybrid.ready();\n", 2),
        ("component", "ui.component('box', () => {\n  while (true) {}\n});\nhybrid.ready();\n", 1),
    ]

    @Test(arguments: cases.map(\.name))
    func aRunawayIsReportedLocatedAndTheAppGoesOn(name: String) throws {
        let (_, script, line) = Self.cases.first { $0.name == name }!
        let bundle = try TemporaryDirectory("hybrid-hostile-app")
        let data = try TemporaryDirectory("hybrid-hostile-data")
        try FileManager.default.createDirectory(at: bundle.url.appendingPathComponent("screens"), withIntermediateDirectories: true)
        let body = name == "component"
            ? #"{"type": "column", "children": [{"type": "text", "text": "still here"}, {"type": "component", "name": "box", "props": {}}]}"#
            : #"{"type": "text", "text": "still here"}"#
        let files = [
            "manifest.json": #"{"app": "hostile", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "screens/home.json"}}"#,
            "screens/home.json": #"{"format": 1, "id": "home", "state": {"n": 0}, "keys": {"x": "spin"}, "body": \#(body)}"#,
            "main.js": script,
        ]
        for (file, text) in files { try text.write(to: bundle.url.appendingPathComponent(file), atomically: true, encoding: .utf8) }
        let result = try BoundedRun.hybrid(["run", bundle.path, "--headless", "--size", "40x3", "--keys", "x wait:50ms"],
                                           environment: ["XDG_DATA_HOME": data.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("still here"), "\(result.standardOutput)")
        #expect(result.standardError.contains("\(bundle.path)/main.js:\(line):1: stopped: "), "\(result.standardError)")
    }
}

/// The built `hybrid`, stopped (and the case failed) if it has not ended within a generous bound:
/// a hang fails the test instead of holding the suite for ever.
enum BoundedRun {
    static let bound: TimeInterval = 60

    static func hybrid(_ arguments: [String], environment: [String: String]) throws -> CommandRunner.Result {
        let folder = try TemporaryDirectory("hybrid-bounded")
        let output = folder.url.appendingPathComponent("stdout")
        let errors = folder.url.appendingPathComponent("stderr")
        let process = try CommandRunner.start("hybrid", arguments, in: CommandRunner.repository, environment: environment, output: output, errors: errors)
        let deadline = Date().addingTimeInterval(bound)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("hybrid \(arguments.joined(separator: " ")) did not end within \(Int(bound)) s")
        }
        return CommandRunner.Result(status: process.terminationStatus,
                                    standardOutput: String(decoding: try Data(contentsOf: output), as: UTF8.self),
                                    standardError: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }
}

private extension Substring {
    var nonEmpty: Substring? { isEmpty ? nil : self }
}

/// Promise jobs the engine itself resumes (an `async` function that awaits in an endless loop)
/// escape the time limit, which JavaScriptCore arms afresh for each job. They must still end:
/// the process stops with status 1 and a report naming the entry, instead of hanging.
struct StuckScriptTests {
    static let script = "async function spin() {\n  while (true) { await null; }\n}\nspin();\n"

    @Test func evalEndsWithAReport() throws {
        let folder = try TemporaryDirectory("hybrid-stuck")
        let path = folder.url.appendingPathComponent("stuck.js").path
        try Self.script.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try BoundedRun.hybrid(["eval", path], environment: ["XDG_DATA_HOME": folder.path])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("stopped the app: \(path) ran on for 1 s of CPU time past its time limit"),
                "\(result.standardError)")
    }

    @Test func aHandlerStartingItEndsTheAppWithAReport() throws {
        let bundle = try TemporaryDirectory("hybrid-stuck-bundle")
        let data = try TemporaryDirectory("hybrid-stuck-data")
        let files = [
            "manifest.json": #"{"app": "stuck", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}}"#,
            "home.json": #"{"format": 1, "id": "home", "keys": {"x": "spin"}, "body": {"type": "text", "text": "press x"}}"#,
            "main.js": Self.script.replacingOccurrences(of: "spin();\n", with: "ui.handler('spin', () => { spin(); });\nhybrid.ready();\n"),
        ]
        for (name, text) in files { try text.write(to: bundle.url.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let result = try BoundedRun.hybrid(["run", bundle.path, "--headless", "--size", "40x3", "--keys", "x wait:50ms"],
                                           environment: ["XDG_DATA_HOME": data.path])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("stopped the app: the handler spin ran on"), "\(result.standardError)")
    }
}
