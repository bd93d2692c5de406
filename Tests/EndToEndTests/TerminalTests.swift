import Foundation
import TestSupport
import XCTest

/// `hybrid run` in a real pseudo-terminal, driven by `Tests/pty/drive.py` (Python 3, standard
/// library only): quitting and signals put the terminal back, a resize redraws at the new
/// size, a mouse click presses a button, and a one-character change writes a small diff.
/// Each case prints PASS or a FAIL reason with the tail of the terminal output.
final class TerminalTests: XCTestCase {
    /// Runs one case of the driver (`drive.py`, or `protocols.py` for the terminal's answers)
    /// against the built binary and returns what it printed.
    @discardableResult
    func drive(_ testCase: String, script: String = "drive.py", file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let binary = CommandRunner.productsFolder.appendingPathComponent("hybrid")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "Tests/pty/" + script, testCase, binary.path,
                             "--repo", CommandRunner.repository.path]
        process.currentDirectoryURL = CommandRunner.repository
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        environment["PYTHONUNBUFFERED"] = "1"
        process.environment = environment
        // A file rather than a pipe: the driver's output can never fill a pipe and stall it.
        let log = try makeTemporaryDirectory("hybrid-pty").appendingPathComponent("driver.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let output = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        print(output, terminator: "")
        XCTAssertEqual(process.terminationReason, .exit, "the driver was killed\n\(output)", file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 0, "\(script) \(testCase) failed:\n\(output)", file: file, line: line)
        return output
    }

    /// On a terminal that answers as kitty does, the app pushes the keyboard protocol's flags:
    /// ctrl+i is not Tab, Esc comes at once, modifiers are exact, releases are no keys; the
    /// flags are popped when it quits. Frames use synchronized output, which it also has.
    func testTheKittyKeyboardProtocolWhereTheTerminalHasIt() throws {
        try drive("kitty-keys", script: "protocols.py")
    }

    /// SIGTERM's handler pops the keyboard flags with the rest of the restore.
    func testSigtermPopsTheKeyboardFlags() throws {
        try drive("kitty-sigterm", script: "protocols.py")
    }

    /// A crash signal's handler pops them too.
    func testACrashPopsTheKeyboardFlags() throws {
        try drive("kitty-crash", script: "protocols.py")
    }

    /// Ctrl-Z pops them, continuing pushes them again.
    func testSuspendPopsAndContinuingPushesTheKeyboardFlags() throws {
        try drive("kitty-suspend", script: "protocols.py")
    }

    /// A terminal that answers nothing still gets its first frame (after a short wait), and
    /// neither synchronized-output markers nor the keyboard protocol.
    func testATerminalThatAnswersNothingGetsNeitherFeature() throws {
        try drive("silent-terminal", script: "protocols.py")
    }

    /// Ctrl-Z puts the terminal back and stops the app (as a job of a shell); SIGCONT, the
    /// shell's `fg`, enters the session again and redraws the whole screen.
    func testCtrlZSuspendsAndContinuingRedraws() throws {
        try drive("suspend")
    }

    /// Ctrl-C quits with status 0, the output ends leaving the alternate screen with the
    /// cursor shown, and ICANON/ECHO/ISIG (all of termios) are as they were before.
    func testCtrlCQuitsAndRestoresTheTerminal() throws {
        try drive("ctrl-c")
    }

    /// A timer that changes state redraws without a key (no spinner needed).
    func testATimerRedrawsWithoutInput() throws {
        try drive("timer-redraw")
    }

    /// Log lines written while the app runs come out after the terminal is restored.
    func testStandardErrorIsHeldUntilTheTerminalIsRestored() throws {
        try drive("held-stderr")
    }

    /// A bundle that fails while starting: status 1, the terminal restored, then the message.
    func testAFatalErrorIsPrintedAfterTheTerminalIsRestored() throws {
        try drive("fatal")
    }

    /// The problems of a start that failed come out in the order they happened: the warning,
    /// the script's error, then the line that refers to it.
    func testProblemsArePrintedInTheOrderTheyHappened() throws {
        try drive("problem-order")
    }

    /// The development-bundle warning is printed once, after the restore, even on SIGTERM.
    func testTheDevelopmentWarningSurvivesSigterm() throws {
        try drive("sigterm-warning")
    }

    /// A script the time limit cannot stop (an async function awaiting in an endless loop):
    /// status 1, the terminal restored, then the report.
    func testAStuckScriptEndsTheAppWithTheTerminalRestored() throws {
        try drive("stuck-await")
    }

    /// SIGTERM restores the terminal, then the process dies by SIGTERM.
    func testSigtermRestoresTheTerminalAndEndsBySigterm() throws {
        try drive("sigterm")
    }

    /// Other signals that end a process by default (SIGALRM, SIGUSR2, SIGXCPU) restore
    /// the terminal too; they had left it raw, in the alternate screen, with the mouse on.
    func testOtherEndingSignalsRestoreTheTerminal() throws {
        try drive("other-signals")
    }

    /// SIGABRT restores the terminal, then chains to the default action: death by SIGABRT.
    func testAbortRestoresTheTerminalAndEndsBySigabrt() throws {
        try drive("crash")
    }

    /// SIGSEGV likewise (the handler that chains faults on to JavaScriptCore's or the default).
    func testSegfaultRestoresTheTerminalAndEndsBySigsegv() throws {
        try drive("crash-segv")
    }

    /// A new window size and SIGWINCH redraw everything: right-aligned text moves to column 92
    /// of a 100-column screen.
    func testResizeRedrawsAtTheNewSize() throws {
        try drive("resize")
    }

    /// An SGR mouse press and release on a button runs its onPress.
    func testMouseClickPressesAButton() throws {
        try drive("click")
    }

    /// A one-character state change is written as a diff of fewer than 60 bytes.
    func testOneCharacterChangeWritesAFewDozenBytes() throws {
        let output = try drive("small-diff")
        XCTAssertTrue(output.contains("PASS small-diff"), output)
    }
}
