import Foundation
import HybridTerminal
import XCTest

/// A real pseudo-terminal pair opened in-process: the session runs on the secondary side and
/// the test reads what it writes from the primary side.
final class TerminalSessionTests: XCTestCase {
    var primary: Int32 = -1
    var secondary: Int32 = -1

    override func setUpWithError() throws {
        // posix_openpt and friends are not imported into Swift here; these are the Linux
        // ioctls they wrap (TIOCSPTLCK to unlock, TIOCGPTN for the number).
        primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard primary >= 0, ioctl(primary, 0x4004_5431, &unlock) == 0, ioctl(primary, 0x8004_5430, &number) == 0 else {
            throw XCTSkip("no pseudo-terminals here")
        }
        secondary = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        _ = fcntl(primary, F_SETFL, fcntl(primary, F_GETFL) | O_NONBLOCK)
    }

    override func tearDown() {
        close(secondary)
        close(primary)
    }

    func drain() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        usleep(20_000)
        while true {
            let count = read(primary, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func settings() -> termios {
        var current = termios()
        tcgetattr(secondary, &current)
        return current
    }

    func testEntersRawModeAndTheAlternateScreenAndPutsEverythingBack() throws {
        let before = settings()
        XCTAssertNotEqual(before.c_lflag & tcflag_t(ICANON), 0)
        let session = try TerminalSession(input: secondary, output: secondary)
        let raw = settings()
        XCTAssertEqual(raw.c_lflag & tcflag_t(ICANON | ECHO | ISIG), 0, "no line editing, echo or signal keys")
        let entered = drain()
        XCTAssertTrue(entered.contains("\u{1B}[?1049h"), "alternate screen")
        XCTAssertTrue(entered.contains("\u{1B}[?25l"), "cursor hidden")
        XCTAssertTrue(entered.contains("\u{1B}[?1006h"), "SGR mouse")
        XCTAssertTrue(entered.contains("\u{1B}[?2004h"), "bracketed paste")

        session.write(Array("frame".utf8))
        XCTAssertEqual(drain(), "frame")

        session.restore()
        let left = drain()
        XCTAssertTrue(left.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"), "cursor shown, normal screen: \(left.debugDescription)")
        XCTAssertTrue(left.contains("\u{1B}[?1006l") && left.contains("\u{1B}[?2004l"))
        let after = settings()
        XCTAssertEqual(after.c_lflag, before.c_lflag)
        XCTAssertEqual(after.c_iflag, before.c_iflag)
        session.restore()
        XCTAssertEqual(drain(), "", "restoring twice writes nothing more")
    }

    func testReportsItsSize() throws {
        var window = winsize(ws_row: 33, ws_col: 101, ws_xpixel: 0, ws_ypixel: 0)
        XCTAssertEqual(ioctl(secondary, UInt(TIOCSWINSZ), &window), 0)
        let session = try TerminalSession(input: secondary, output: secondary)
        defer { session.restore() }
        let size = session.size()
        XCTAssertEqual(size.columns, 101)
        XCTAssertEqual(size.rows, 33)
    }

    func testRefusesWhatIsNotATerminal() {
        let file = open("/dev/null", O_RDWR)
        defer { close(file) }
        XCTAssertThrowsError(try TerminalSession(input: file, output: file))
    }
}
