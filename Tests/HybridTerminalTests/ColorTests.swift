import XCTest
import HybridCells
@testable import HybridTerminal

final class ColorSupportTests: XCTestCase {
    func testDetectionMatrix() {
        let cases: [([String: String], ColorSupport, UInt)] = [
            ([:], .none, #line),
            (["TERM": ""], .none, #line),
            (["TERM": "dumb"], .none, #line),
            (["TERM": "dumb", "COLORTERM": "truecolor"], .none, #line),
            (["TERM": "xterm"], .ansi16, #line),
            (["TERM": "linux"], .ansi16, #line),
            (["TERM": "xterm-256color"], .ansi256, #line),
            (["TERM": "screen-256color"], .ansi256, #line),
            (["TERM": "xterm-256color", "COLORTERM": "truecolor"], .trueColor, #line),
            (["TERM": "xterm", "COLORTERM": "24BIT"], .trueColor, #line),
            (["COLORTERM": "truecolor"], .trueColor, #line),
            (["TERM": "xterm-direct"], .trueColor, #line),
            (["TERM": "xterm-256color", "COLORTERM": "yes"], .ansi256, #line),
            (["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"], .none, #line),
            (["TERM": "xterm-256color", "NO_COLOR": ""], .ansi256, #line),
        ]
        for (environment, expected, line) in cases {
            XCTAssertEqual(ColorSupport.detect(environment: environment), expected, "\(environment)", line: line)
        }
    }

    func testOrdering() {
        XCTAssertTrue(ColorSupport.none < .ansi16)
        XCTAssertTrue(ColorSupport.ansi256 < .trueColor)
    }
}

final class ColorDegradationTests: XCTestCase {
    func testNoneDropsEveryColor() {
        for color in [Color.ansi(1), .indexed(200), .rgb(1, 2, 3)] {
            XCTAssertNil(color.degraded(to: .none))
        }
    }

    func testTrueColorKeepsColors() {
        XCTAssertEqual(Color.rgb(12, 34, 56).degraded(to: .trueColor), .rgb(12, 34, 56))
        XCTAssertEqual(Color.indexed(200).degraded(to: .trueColor), .indexed(200))
        XCTAssertEqual(Color.ansi(3).degraded(to: .trueColor), .ansi(3))
        XCTAssertEqual(Color.ansi(42).degraded(to: .trueColor), .indexed(42))
    }

    func testRGBToNearest256() {
        XCTAssertEqual(Color.rgb(255, 0, 0).degraded(to: .ansi256), .indexed(196))
        XCTAssertEqual(Color.rgb(0, 0, 0).degraded(to: .ansi256), .indexed(16))
        XCTAssertEqual(Color.rgb(255, 255, 255).degraded(to: .ansi256), .indexed(231))
        XCTAssertEqual(Color.rgb(95, 135, 175).degraded(to: .ansi256), .indexed(67), "exact cube colour")
        XCTAssertEqual(Color.rgb(128, 128, 128).degraded(to: .ansi256), .indexed(244), "grey ramp beats the cube")
        XCTAssertEqual(Color.rgb(0xFF, 0x80, 0x00).degraded(to: .ansi256), .indexed(208))
        XCTAssertEqual(Color.ansi(9).degraded(to: .ansi256), .ansi(9))
        XCTAssertEqual(Color.indexed(100).degraded(to: .ansi256), .indexed(100))
        // Every palette entry maps to itself.
        for n in 16...255 {
            let (r, g, b) = ColorPalette.rgb(ofIndex: UInt8(n))
            XCTAssertEqual(ColorPalette.nearest256(r, g, b), UInt8(n), "index \(n)")
        }
    }

    func testToNearest16() {
        XCTAssertEqual(Color.rgb(255, 0, 0).degraded(to: .ansi16), .ansi(9))
        XCTAssertEqual(Color.rgb(200, 0, 0).degraded(to: .ansi16), .ansi(1))
        XCTAssertEqual(Color.rgb(0, 0, 0).degraded(to: .ansi16), .ansi(0))
        XCTAssertEqual(Color.rgb(250, 250, 250).degraded(to: .ansi16), .ansi(15))
        XCTAssertEqual(Color.rgb(120, 120, 120).degraded(to: .ansi16), .ansi(8))
        XCTAssertEqual(Color.indexed(4).degraded(to: .ansi16), .ansi(4))
        XCTAssertEqual(Color.indexed(196).degraded(to: .ansi16), .ansi(9))
        XCTAssertEqual(Color.indexed(28).degraded(to: .ansi16), .ansi(2), "dark green")
        XCTAssertEqual(Color.indexed(22).degraded(to: .ansi16), .ansi(0), "very dark green is closer to black")
        XCTAssertEqual(Color.ansi(13).degraded(to: .ansi16), .ansi(13))
    }
}
