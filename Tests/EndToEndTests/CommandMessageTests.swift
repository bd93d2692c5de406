import Foundation
import TestSupport
import XCTest

/// What a new user is told when a command cannot do what they asked, through the real binaries:
/// each message names the file or option, says why, and what would be accepted; the exit status
/// follows SPEC §6 (1 a user error, 2 bad usage).
final class CommandMessageTests: XCTestCase {
    var folder: URL!
    var environment: [String: String] {
        ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path]
    }

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory("hybrid-messages")
    }

    private func hybrid(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.hybrid(arguments, environment: environment, timeout: 60)
    }

    /// Writes `text` to `name` in the test's folder and answers its path.
    @discardableResult
    private func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    // MARK: --state

    func testStateThatIsNotAnObjectIsAUsageErrorNamingTheFile() throws {
        let state = try write("state.json", "[1]")
        let result = try hybrid(["render", "samples/form.json", "--state", state, "--plain"])
        XCTAssertEqual(result.status, 2, result.standardError)
        XCTAssertEqual(result.standardError,
                       "Error: --state \(state): expected a JSON object whose members are merged over the screen's state, got an array\n")
        XCTAssertEqual(result.standardOutput, "", "nothing is drawn from a state that was refused")
    }

    // MARK: Documents with errors

    /// A screen with an unknown field: `render` and `run` both draw what they can and exit 1.
    func testARunThatShowsABrokenDocumentExitsOneLikeRender() throws {
        let screen = try write("bad.json", #"{"format": 1, "id": "bad", "body": {"type": "text", "text": "still drawn", "colour": "red"}}"#)
        let problem = "\(screen):1:76: $.body.colour: unknown field \"colour\" in a \"text\" node"
        let render = try hybrid(["render", screen, "--plain", "--size", "40x2"])
        XCTAssertEqual(render.status, 1)
        XCTAssertTrue(render.standardError.hasPrefix(problem), render.standardError)
        let run = try hybrid(["run", screen, "--headless", "--size", "40x2"])
        XCTAssertEqual(run.status, 1, run.standardError)
        XCTAssertTrue(run.standardError.hasPrefix(problem), run.standardError)
        XCTAssertTrue(run.standardOutput.contains("[!] unknown field"), "what could be drawn is: \(run.standardOutput)")
    }

    /// A bundle whose start screen has an error runs, shows it, and exits 1.
    func testARunOfABundleWhoseStartScreenHasErrorsExitsOne() throws {
        try write("broken/home.json", #"{"format": 1, "id": "home", "body": {"type": "text", "text": "hi", "colour": "red"}}"#)
        try write("broken/manifest.json", #"{"app": "broken", "version": "1.0.0", "start": "home", "screens": {"home": "home.json"}}"#)
        let bundle = folder.appendingPathComponent("broken").path
        let run = try hybrid(["run", bundle, "--headless", "--size", "40x2"])
        XCTAssertEqual(run.status, 1, run.standardError)
        XCTAssertTrue(run.standardError.contains("\(bundle)/home.json:1:"), run.standardError)
        XCTAssertFalse(run.standardOutput.isEmpty, "the screen is still drawn")
    }

    // MARK: Files that cannot be read

    func testFilesThatCannotBeReadSayWhy() throws {
        let screen = try hybrid(["render", "samples/nope.json", "--plain"])
        XCTAssertEqual(screen.status, 1)
        XCTAssertEqual(screen.standardError, "samples/nope.json:1:1: $: cannot read the file: no such file or directory\n")
        let folderScreen = try hybrid(["render", "samples", "--plain"])
        XCTAssertEqual(folderScreen.standardError, "samples:1:1: $: cannot read the file: is a directory\n")
        let state = try hybrid(["render", "samples/form.json", "--state", "samples", "--plain"])
        XCTAssertEqual(state.status, 1)
        XCTAssertEqual(state.standardError, "samples: cannot read the file: is a directory\n")
        let script = try hybrid(["eval", "samples"])
        XCTAssertEqual(script.status, 1)
        XCTAssertEqual(script.standardError, "samples: cannot read the script: is a directory\n")
        let key = try hybrid(["bundle", "verify", "samples/todo", "--pubkey", "samples"])
        XCTAssertEqual(key.status, 1)
        XCTAssertEqual(key.standardError, "samples: cannot read the key file: is a directory\n")
    }

    // MARK: Option values

    func testTheSizeErrorStatesTheAcceptedRange() throws {
        for arguments in [["render", "samples/form.json"], ["run", "samples/form.json", "--headless"]] {
            let result = try hybrid(arguments + ["--size", "2000x10"])
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(result.standardError.hasPrefix("Error: The value '2000x10' is invalid for '--size <size>': expected WIDTHxHEIGHT, each 1 to 1000 (like 80x24)\n"),
                          result.standardError)
        }
        let negative = try hybrid(["render", "samples/form.json", "--size", "-5x3"])
        XCTAssertTrue(negative.standardError.contains("'-5x3' is invalid for '--size <size>': expected WIDTHxHEIGHT, each 1 to 1000"), negative.standardError)
    }

    func testANegativeReadyTimeoutIsReadAndRefusedSayingWhatIsAccepted() throws {
        let result = try hybrid(["run", "samples/form.json", "--headless", "--ready-timeout", "-1"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.hasPrefix("Error: --ready-timeout takes a number of seconds above 0 (like 5 or 0.5), got -1"), result.standardError)
        XCTAssertFalse(result.standardError.contains("Missing value"), result.standardError)
    }

    // MARK: serve, keygen, shop-demo

    func testABusyPortIsSaidPlainlyWithAWayOut() throws {
        let taken = try LoopbackHTTPServer { _ in nil }
        defer { taken.stop() }
        let result = try hybrid(["serve", "samples", "--port", "\(taken.port)"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardError,
                       "hybrid serve: port \(taken.port) on 127.0.0.1 is in use by another program; choose another with --port N, or --port 0 to pick a free one\n")
    }

    func testKeygenRefusesANameWithAFolderWhenGivenOutDir() throws {
        let keys = folder.appendingPathComponent("keys").path
        let result = try CommandRunner.run("hybrid", ["bundle", "keygen", "../escaped", "--out-dir", keys], environment: environment)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.hasPrefix("Error: with --out-dir, NAME is a file name without a folder, got \"../escaped\"; the keys go into \(keys)/\n"),
                      result.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("escaped.key").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: keys))
    }

    func testShopDemoReportsAMissingBundleBeforeAnyKey() throws {
        let missing = folder.appendingPathComponent("missing.hbundle").path
        let result = try CommandRunner.run("shop-demo", ["--bundle", missing, "--headless"], environment: environment, timeout: 60)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardError, "\(missing): no such file or folder\n")
        XCTAssertEqual(result.standardOutput, "")
    }

    // MARK: A bundle that cannot start

    /// A signed version that never calls `hybrid.ready()` is marked bad and nothing else can
    /// start: the messages say so, in order, and no empty frame follows them.
    func testNothingCouldStartPrintsNoFrame() throws {
        try write("never/manifest.json", #"{"app": "never", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}}"#)
        try write("never/home.json", #"{"format": 1, "id": "home", "body": {"type": "text", "text": "never ready"}}"#)
        try write("never/main.js", "const waiting = true;\n")
        let keys = folder.appendingPathComponent("keys").path
        XCTAssertEqual(try hybrid(["bundle", "keygen", "release", "--out-dir", keys]).status, 0)
        let archive = folder.appendingPathComponent("never.hbundle").path
        let pack = try hybrid(["bundle", "pack", folder.appendingPathComponent("never").path, "--key", keys + "/release.key", "--out", archive])
        XCTAssertEqual(pack.status, 0, pack.standardError)
        let run = try hybrid(["run", archive, "--pubkey", keys + "/release.pub", "--headless", "--ready-timeout", "1"])
        XCTAssertEqual(run.status, 1, run.standardError)
        XCTAssertEqual(run.standardOutput, "", "no frame after nothing could start")
        XCTAssertEqual(run.standardError, """
            never 1.0.0 is marked bad and will not be launched again: it did not call hybrid.ready() within 1 s
            nothing could start: every version failed (see above)

            """)
    }
}
