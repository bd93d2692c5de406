import Foundation
import TestSupport
import XCTest

/// The interactive samples `signup`, `flow` and `live`, run through the real binary headless
/// the way a user would drive them: keys in, the final frame out.
final class SampleAppTests: XCTestCase {
    var data: URL!

    override func setUpWithError() throws {
        data = try makeTemporaryDirectory("hybrid-samples")
    }

    /// Runs `sample` headless at 80×24 with `keys`; checks that it ran cleanly (status 0, no
    /// script or expression problems on stderr) and returns the rows of the final frame.
    func run(_ sample: String, keys: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let result = try CommandRunner.hybrid(["run", sample, "--headless", "--size", "80x24", "--keys", keys],
                                              environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.status, 0, result.standardError, file: file, line: line)
        XCTAssertEqual(result.standardError, "\(sample): a development bundle (no manifest.sig); it runs unsigned\n", file: file, line: line)
        return result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The number after `label` in the frame (a counter on the dashboard).
    func number(after label: String, in rows: [String], file: StaticString = #filePath, line: UInt = #line) -> Int? {
        for row in rows {
            guard let range = row.range(of: label) else { continue }
            let digits = row[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
            if let value = Int(digits) { return value }
        }
        XCTFail("no \"\(label)\" followed by a number in:\n\(rows.joined(separator: "\n"))", file: file, line: line)
        return nil
    }

    func testTheThreeSamplesValidate() throws {
        for sample in ["samples/signup", "samples/flow", "samples/live"] {
            let result = try CommandRunner.hybrid(["validate", sample])
            XCTAssertEqual(result.status, 0, "\(sample): \(result.standardOutput)\(result.standardError)")
            XCTAssertEqual(result.standardOutput, "\(sample): ok\n")
        }
    }

    // MARK: signup

    static let submitEmpty = "tab tab tab tab tab enter"
    static let backToName = "shift+tab shift+tab shift+tab shift+tab shift+tab"

    func testSignupSubmittedEmptyShowsEveryError() throws {
        let rows = try run("samples/signup", keys: Self.submitEmpty)
        XCTAssertEqual(rows[3], " │ Name       [your full name                ]  name: required                │")
        XCTAssertEqual(rows[5], " │ Email      [you@example.com               ]  email: required               │")
        XCTAssertEqual(rows[7], " │ Password   [8 characters or more          ]  password: required            │")
        XCTAssertEqual(rows[9], " │ Plan       [Choose a plan (↑↓)           ▾]  plan: choose one              │")
        XCTAssertEqual(rows[11], " │ [ ] I accept the terms of service            terms: please accept          │")
        XCTAssertEqual(rows[16], " ✘ 5 fields need attention. First: name: required")
    }

    func testSignupWithValidValuesShowsTheSummary() throws {
        let rows = try run("samples/signup", keys: #""Ada Lovelace" tab "ada@example.com" tab "correct horse" tab down down tab space tab enter"#)
        XCTAssertEqual(rows[3], " │ Name       [Ada Lovelace                  ]                                │")
        XCTAssertEqual(rows[5], " │ Email      [ada@example.com               ]                                │")
        // The password is masked.
        XCTAssertEqual(rows[7], " │ Password   [*************                 ]                                │")
        XCTAssertEqual(rows[9], " │ Plan       [Pro — 10 projects            ▾]                                │")
        XCTAssertEqual(rows[11], " │ [x] I accept the terms of service                                          │")
        XCTAssertEqual(rows[16], " ✔ Welcome, Ada Lovelace! Pro plan; mail goes to ada@example.com")
        XCTAssertFalse(rows.joined().contains("correct horse"))
    }

    func testSignupReportsTheFirstProblemLeft() throws {
        // Everything right but the terms: the summary names that one.
        let rows = try run("samples/signup", keys: #""Ada Lovelace" tab "ada@example.com" tab "correct horse" tab down tab tab enter"#)
        XCTAssertEqual(rows[9], " │ Plan       [Free — 1 project             ▾]                                │")
        XCTAssertEqual(rows[11], " │ [ ] I accept the terms of service            terms: please accept          │")
        XCTAssertEqual(rows[16], " ✘ 1 field needs attention. First: terms: please accept")
    }

    func testSignupFixingAFieldClearsItsMessage() throws {
        // After a failed submit, typing a name clears the name's message (and the summary);
        // a half-typed email gets its own message while the other fields keep theirs.
        let halfway = try run("samples/signup", keys: Self.submitEmpty + " " + Self.backToName + #" "Ada" tab "ada""#)
        XCTAssertEqual(halfway[3], " │ Name       [Ada                           ]                                │")
        XCTAssertEqual(halfway[5], " │ Email      [ada                           ]  email: needs an @             │")
        XCTAssertEqual(halfway[7], " │ Password   [8 characters or more          ]  password: required            │")
        XCTAssertEqual(halfway[11], " │ [ ] I accept the terms of service            terms: please accept          │")
        XCTAssertEqual(halfway[16], "")
        // Finishing the address clears its message too; a short password says how far it is.
        let fixed = try run("samples/signup", keys: Self.submitEmpty + " " + Self.backToName + #" "Ada" tab "ada@example.com" tab "secret""#)
        XCTAssertEqual(fixed[5], " │ Email      [ada@example.com               ]                                │")
        XCTAssertEqual(fixed[7], " │ Password   [******                        ]  password: 2 more characters   │")
        // Ticking the box clears the terms message without touching the plan's.
        let ticked = try run("samples/signup", keys: Self.submitEmpty + " shift+tab space")
        XCTAssertEqual(ticked[9], " │ Plan       [Choose a plan (↑↓)           ▾]  plan: choose one              │")
        XCTAssertEqual(ticked[11], " │ [x] I accept the terms of service                                          │")
    }

    // MARK: flow

    func testFlowOpensTheDetailScreenWithParams() throws {
        let rows = try run("samples/flow", keys: "down enter")
        XCTAssertEqual(rows[0], " Leaf & Cup · Catalog › Earl Grey                                 Cart: 0 items")
        XCTAssertEqual(rows[2], " ╔ EARL GREY ═════════════════════════════════════════════════════════════════╗")
        XCTAssertEqual(rows[3], " ║ Product id  erl                                                            ║")
        XCTAssertEqual(rows[6], " ║ Price       € 7.00 per 100 g                                               ║")
        XCTAssertEqual(rows[7], " ║ In cart     0                                                              ║")
        XCTAssertEqual(rows[12], " [ Add to cart ]   [ Back to catalog ]")
    }

    func testFlowBackReturnsToTheCatalogAsItWas() throws {
        let before = try run("samples/flow", keys: "down down")
        XCTAssertEqual(before[0], " Leaf & Cup · Catalog                                             Cart: 0 items")
        XCTAssertEqual(before[5], " │ Darjeeling          black     West Bengal, India                   € 12.00 │")
        // Esc, or the Back button, returns to the very same frame…
        XCTAssertEqual(try run("samples/flow", keys: "down down enter esc"), before)
        XCTAssertEqual(try run("samples/flow", keys: "down down enter tab enter"), before)
        // …with the list's selection kept: Enter opens the same tea again, Down the next one.
        XCTAssertEqual(try run("samples/flow", keys: "down down enter esc enter")[0],
                       " Leaf & Cup · Catalog › Darjeeling                                Cart: 0 items")
        XCTAssertEqual(try run("samples/flow", keys: "down down enter esc down enter")[0],
                       " Leaf & Cup · Catalog › Lapsang Souchong                          Cart: 0 items")
    }

    func testFlowAddsToTheCartAndTheCatalogShowsIt() throws {
        let detail = try run("samples/flow", keys: "down down enter enter a")
        XCTAssertEqual(detail[0], " Leaf & Cup · Catalog › Darjeeling                                Cart: 2 items")
        XCTAssertEqual(detail[7], " ║ In cart     2                                                              ║")
        XCTAssertEqual(detail[14], " ✔ Added Darjeeling to the cart")
        // Back on the catalog (a new process: the cart was saved with the storage service),
        // the list marks the tea and the cart box adds it up.
        let catalog = try run("samples/flow", keys: "up enter enter esc")
        XCTAssertEqual(catalog[0], " Leaf & Cup · Catalog                                             Cart: 3 items")
        XCTAssertEqual(catalog[3], " │ Sencha              green     Shizuoka, Japan               ×1      € 9.50 │")
        XCTAssertEqual(catalog[5], " │ Darjeeling          black     West Bengal, India            ×2     € 12.00 │")
        XCTAssertEqual(catalog[11], " │ 1 × Sencha (€ 9.50) · 2 × Darjeeling (€ 24.00)                             │")
        XCTAssertEqual(catalog[12], " │                                                              Total € 33.50 │")
        // x empties the cart.
        let emptied = try run("samples/flow", keys: "x")
        XCTAssertEqual(emptied[0], " Leaf & Cup · Catalog                                             Cart: 0 items")
        XCTAssertEqual(emptied[11], " │ Empty: open a tea and press Enter on Add to cart.                          │")
    }

    // MARK: live

    func testTheLiveDashboardMovesWhileRunning() throws {
        let rows = try run("samples/live", keys: "wait:400ms")
        XCTAssertTrue(rows[0].hasSuffix("● running"), rows[0])
        let ticks = try XCTUnwrap(number(after: "Ticks", in: rows))
        XCTAssertGreaterThan(ticks, 0)
        XCTAssertTrue(rows.contains { $0.contains("Building job #") }, rows.joined(separator: "\n"))
        XCTAssertTrue(rows.contains { $0.contains("info      dashboard started") }, rows.joined(separator: "\n"))
        // A longer run has counted further than the shortest possible one.
        let later = try run("samples/live", keys: "wait:1500ms")
        let laterTicks = try XCTUnwrap(number(after: "Ticks", in: later))
        XCTAssertGreaterThan(laterTicks, 1)
    }

    func testTheLiveDashboardStaysStillWhilePaused() throws {
        // Paused at once, then time passes: the counters are where the pause found them (the
        // first tick may or may not have come before the key, so no exact number).
        let still = try run("samples/live", keys: "p wait:400ms")
        let stillAt = try XCTUnwrap(number(after: "❚❚ paused at tick", in: [still[0]]))
        XCTAssertEqual(number(after: "Ticks", in: still), stillAt)
        XCTAssertTrue(still.contains { $0.contains("Job #1 on hold at step \(stillAt) of 10") }, still.joined(separator: "\n"))
        XCTAssertTrue(still.contains { $0.contains("info      paused at tick \(stillAt)") }, still.joined(separator: "\n"))
        // Paused after some ticks: the count is still the one it was paused at.
        let paused = try run("samples/live", keys: "wait:400ms p wait:400ms")
        let pausedAt = try XCTUnwrap(number(after: "❚❚ paused at tick", in: [paused[0]]))
        XCTAssertGreaterThan(pausedAt, 0)
        XCTAssertEqual(number(after: "Ticks", in: paused), pausedAt)
    }

    func testTheLiveDashboardResumes() throws {
        let rows = try run("samples/live", keys: "space wait:200ms space wait:400ms")
        XCTAssertTrue(rows[0].hasSuffix("● running"), rows[0])
        let log = rows.joined(separator: "\n")
        let pausedAt = try XCTUnwrap(number(after: "info      paused at tick", in: rows))
        XCTAssertTrue(log.contains("info      resumed at tick \(pausedAt)"), log)
        XCTAssertGreaterThan(try XCTUnwrap(number(after: "Ticks", in: rows)), pausedAt)
    }
}
