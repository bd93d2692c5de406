import Foundation
import HybridJSON
@testable import HybridNetwork
import TestSupport
import XCTest

/// Calls made ready to send (SPEC §7.1): params checked before anything is sent, canonical
/// cache keys, paths and queries encoded, and signatures a server in another language verifies.
final class PreparedRequestTests: XCTestCase {
    let definitions: APIDefinitions = {
        let load = APIDefinitions.load(contentsOf: APIDefinitionsTests.fixtures.appendingPathComponent("valid/full.json").path)
        return load.value!
    }()

    func params(_ text: String) throws -> JSONValue {
        try JSONParser.parse(text).plain
    }

    func testParamsFillThePathTheQueryAndTheCacheKey() throws {
        let request = try definitions.prepare("items.list", params: try params(#"{"q": "green tea & more", "category": "tea/leaf"}"#))
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.path, "/items/tea%2Fleaf", "a path param is percent-encoded, / included")
        XCTAssertEqual(request.url, "http://127.0.0.1:8099/v1/items/tea%2Fleaf?page=1&q=green%20tea%20%26%20more", "the default page applied; sorted")
        XCTAssertNil(request.body)
        let same = try definitions.prepare("items.list", params: try params(#"{"category": "tea/leaf", "page": 1, "q": "green tea & more"}"#))
        XCTAssertEqual(request.cacheKey, same.cacheKey, "{a,b} and {b,a}, default or written: one key")
        let other = try definitions.prepare("items.list", params: try params(#"{"category": "tea/leaf", "page": 2}"#))
        XCTAssertNotEqual(request.cacheKey, other.cacheKey)
    }

    func testABodyForMethodsThatCarryOne() throws {
        let request = try definitions.prepare("cart.add", params: .null)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.body.map { String(decoding: $0, as: UTF8.self) }, "{}")
    }

    func testParamsThatBreakTheirRulesAreRefusedNamingTheParam() throws {
        XCTAssertThrowsError(try definitions.prepare("items.list", params: try params(#"{"q": "x"}"#))) {
            XCTAssertEqual($0 as? CallError, CallError(code: "E_BAD_PARAMS", message: #"items.list: missing the required param "category""#))
        }
        XCTAssertThrowsError(try definitions.prepare("items.list", params: try params(#"{"category": "tea", "page": 0}"#))) {
            XCTAssertEqual(($0 as? CallError)?.message, #"items.list: param "page": expected at least 1, got 0"#)
        }
        XCTAssertThrowsError(try definitions.prepare("items.list", params: try params(#"{"category": "tea", "pgae": 2}"#))) {
            XCTAssertEqual(($0 as? CallError)?.message, #"items.list: no param named "pgae" (its params are category, page, q); did you mean "page"?"#)
        }
        XCTAssertThrowsError(try definitions.prepare("item.list", params: .null)) {
            XCTAssertEqual($0 as? CallError, CallError(code: "E_NO_SERVICE", message: #"api.call: no API named "item.list"; did you mean "items.list"?"#))
        }
    }

    /// The signature made here is checked by the Python verifier docs/network.md gives servers.
    func testTheSignatureIsVerifiedByTheDocumentedRecipeAndAReplayIsRefused() throws {
        let request = try definitions.prepare("items.list", params: try params(#"{"category": "green tea", "q": "ä b"}"#))
        let signature = RequestSignature(signing: request, secret: "s3cret", timestamp: Int(Date().timeIntervalSince1970))
        XCTAssertEqual(signature.nonce.count, 32)
        XCTAssertNotEqual(signature.nonce, RequestSignature.freshNonce())
        let docs = try String(contentsOf: APIDefinitionsTests.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/network.md"), encoding: .utf8)
        let recipe = try XCTUnwrap(docs.components(separatedBy: "```python\n").dropFirst().first?.components(separatedBy: "```").first)
        let headers = Dictionary(uniqueKeysWithValues: signature.headers.map { ($0.name, $0.value) })
        let check = recipe + """

        import json, sys
        headers = json.loads(sys.argv[1])
        seen = set()
        first = verify("GET", sys.argv[2], headers, b"", "s3cret", seen)
        replayed = verify("GET", sys.argv[2], headers, b"", "s3cret", seen)
        tampered = verify("GET", sys.argv[2] + "x", headers, b"", "s3cret", set())
        print(first, replayed, tampered)
        """
        let folder = try TemporaryDirectory("signature")
        let script = folder.url.appendingPathComponent("verify.py")
        try check.write(to: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let headerText = String(decoding: try JSONSerialization.data(withJSONObject: headers), as: UTF8.self)
        process.arguments = ["python3", script.path, headerText, request.url]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(output, "True False False\n", "verified once; a replay and a tampered query are refused")
    }
}
