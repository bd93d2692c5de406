import Foundation
import TestSupport
import XCTest

/// `hybrid validate` on what a bundle's scripts bring (issue 12): their syntax, checked without
/// running them; the components they register, which screens may use; and the did-you-mean
/// for a binding written without `@{…}`.
final class ValidateScriptsTests: XCTestCase {
    func testABundlesScriptsAreCheckedAndTheirComponentsKnown() throws {
        let bundle = try Self.bundle(named: "hybrid-validate-scripts", [
            "manifest.json": #"{"app": "v", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}}"#,
            "home.json": #"{"format": 1, "id": "home", "state": {"loading": true}, "body": {"type": "column", "children": [{"type": "text", "text": "x", "visible": "loading"}, {"type": "component", "name": "card", "props": {}}]}}"#,
            "main.js": "ui.component('card', () => ({ type: 'text', text: 'card' }));\nrequire('./lib/util.js');\n",
            "lib/util.js": "module.exports = function (a {\n  return a;\n};\n",
        ])
        let result = try CommandRunner.hybrid(["validate", bundle.path])
        XCTAssertEqual(result.status, 1, result.standardError)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, result.standardError)
        XCTAssertEqual(lines.first, bundle.path + #"/home.json:1:138: $.body.children[0].visible: expected true, false or an expression, got a string; did you mean "@{loading}"?"#)
        XCTAssertTrue(lines.last?.hasPrefix(bundle.path + "/lib/util.js:1:") == true, result.standardError)
        XCTAssertTrue(lines.last?.contains("SyntaxError") == true, result.standardError)
        XCTAssertFalse(result.standardError.contains("unknown component"), "main.js registers card")
    }

    func testAScriptFileIsCheckedAsAScript() throws {
        let folder = try TemporaryDirectory("hybrid-validate-script")
        let good = folder.url.appendingPathComponent("good.js").path
        let bad = folder.url.appendingPathComponent("bad.js").path
        try "console.log('fine');\n".write(toFile: good, atomically: true, encoding: .utf8)
        try "let x = ;\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let result = try CommandRunner.hybrid(["validate", good, bad])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardOutput, "\(good): ok\n")
        XCTAssertTrue(result.standardError.hasPrefix("\(bad):1:9: SyntaxError: Unexpected token ';'"), result.standardError)
    }

    func testABundlesAPIDefinitionsAreCheckedLocated() throws {
        let bundle = try Self.bundle(named: "hybrid-validate-apis", [
            "manifest.json": #"{"app": "v", "version": "1.0.0", "start": "home", "screens": {"home": "home.json"}, "apis": "data/apis.json"}"#,
            "home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "x"}}"#,
            "data/apis.json": "{ \"services\": { \"shop\": { \"baseURL\": \"http://127.0.0.1:8099\" } },\n  \"apis\": { \"items.list\": { \"service\": \"shop\", \"path\": \"/items\", \"cache\": { \"ttl\": \"soon\" } } } }\n",
        ])
        let result = try CommandRunner.hybrid(["validate", bundle.path])
        XCTAssertEqual(result.status, 1, result.standardError)
        XCTAssertEqual(result.standardError, bundle.path + #"/data/apis.json:2:84: $.apis["items.list"].cache.ttl: expected a number of seconds above 0 and at most 31536000, got "soon""# + "\n")
        try FileManager.default.removeItem(at: bundle.url.appendingPathComponent("data/apis.json"))
        let missing = try CommandRunner.hybrid(["validate", bundle.path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.standardError.contains("data/apis.json"), missing.standardError)
    }

    /// A temporary folder holding `files` (bundle paths to their text).
    static func bundle(named name: String, _ files: [String: String]) throws -> TemporaryDirectory {
        let bundle = try TemporaryDirectory(name)
        for (path, text) in files {
            let url = bundle.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return bundle
    }
}
