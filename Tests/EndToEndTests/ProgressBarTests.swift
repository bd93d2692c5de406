@testable import HybridAppRunner
import XCTest

/// The download bar fits the terminal it is drawn in (issue 12: it was wider than 60 columns).
final class ProgressBarTests: XCTestCase {
    func testTheLineFitsTheTerminalAndTheBarShrinksFirst() {
        let wide = ProgressBar.line(300 << 10, of: 900 << 10, columns: 120)
        XCTAssertEqual(wide, "downloading [##########....................]  33%  300 KiB of 900 KiB")
        for columns in [40, 60, 80] {
            let line = ProgressBar.line(300 << 10, of: 900 << 10, columns: columns)
            XCTAssertLessThan(line.count, columns, line)
        }
        XCTAssertEqual(ProgressBar.line(300 << 10, of: 900 << 10, columns: 30), "downloading  33%  300 KiB of 900 KiB",
                       "no room for a bar: the figures alone")
    }
}
