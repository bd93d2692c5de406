import HybridJSON
@testable import HybridNetwork
import TestSupport
import XCTest

/// API definitions (SPEC §7.1) decoded from bundle files, every problem located.
final class APIDefinitionsTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/apis")

    func testTheSpecsExampleDecodes() throws {
        let load = APIDefinitions.load(contentsOf: Self.fixtures.appendingPathComponent("valid/full.json").path)
        XCTAssertEqual(load.formattedDiagnostics, [])
        let definitions = try XCTUnwrap(load.value)
        XCTAssertEqual(definitions.services["shop"]?.baseURL, "http://127.0.0.1:8099/v1")
        XCTAssertEqual(definitions.services["shop"]?.signingSecret, "shop")
        let list = try XCTUnwrap(definitions.apis["items.list"])
        XCTAssertEqual(list.pathParams, ["category"])
        XCTAssertEqual(list.params["page"]?.defaultValue, .integer(1))
        XCTAssertEqual(list.cache, APIDefinitions.Cache(ttl: 180, store: .disk, staleIfError: true))
        XCTAssertEqual(list.inFlight, .cancelPrevious)
        XCTAssertEqual(list.retry, APIDefinitions.Retry(count: 2, statuses: [502, 503], codes: ["E_TIMEOUT"], backoff: 200))
        XCTAssertEqual(list.paging, APIDefinitions.Paging(param: "page", items: "items"))
        XCTAssertEqual(definitions.apis["cart.add"]?.offline, .queue)
        XCTAssertEqual(definitions.apis["cart.add"]?.method, "POST")
    }

    /// Each invalid fixture gives exactly its `.expected` lines (`NAME.json` named `apis.json`);
    /// `hostile/` holds what no schema can see (a pattern that backtracks for ever on its own
    /// default), reported at once instead of hanging.
    func testInvalidFixturesGiveTheirExactErrors() throws {
        for folder in ["invalid", "hostile"].map(Self.fixtures.appendingPathComponent) {
            try checkExpected(in: folder)
        }
    }

    private func checkExpected(in folder: URL) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertFalse(names.isEmpty)
        for name in names {
            let load = APIDefinitions.load(contentsOf: folder.appendingPathComponent(name).path, displayName: "apis.json")
            XCTAssertNil(load.value, name)
            let expected = try String(contentsOf: folder.appendingPathComponent(name.replacingOccurrences(of: ".json", with: ".expected")), encoding: .utf8)
            XCTAssertEqual(load.formattedDiagnostics.joined(separator: "\n") + "\n", expected, name)
        }
    }

    /// schemas/apis.schema.json agrees with the decoder on every fixture (valid ones pass,
    /// invalid ones are refused by the schema or by the cross-references no schema can state).
    func testTheSchemaAgrees() throws {
        let repository = Self.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let (status, output) = try PythonCheck.run("Tests/schema/check_apis_schema.py", in: repository)
        XCTAssertEqual(status, 0, output)
    }

    func testParamRulesSayWhatIsWrong() {
        var rule = ParamRule(kind: .integer)
        rule.minimum = 1
        XCTAssertNil(rule.problem(with: .integer(3)))
        XCTAssertEqual(rule.problem(with: .integer(0)), "expected at least 1, got 0")
        XCTAssertEqual(rule.problem(with: .string("3")), "expected an integer, got a string")
        var text = ParamRule(kind: .string)
        text.maxLength = 3
        text.pattern = "^[a-z]+$"
        XCTAssertEqual(text.problem(with: .string("abcd")), "expected at most 3 characters, got 4")
        XCTAssertEqual(text.problem(with: .string("A1")), #"expected text matching "^[a-z]+$", got "A1""#)
        var choice = ParamRule(kind: .string)
        choice.allowed = [.string("asc"), .string("desc")]
        XCTAssertEqual(choice.problem(with: .string("up")), #"expected one of "asc", "desc", got "up""#)
    }
}
