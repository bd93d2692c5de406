import Foundation
import HybridJSON
import HybridServices
import TestSupport
import XCTest

private struct Order: Codable, Sendable {
    var sku: String
    var qty: Int
}

/// What a service might decode itself (a stored blob, an upstream answer) and fail on.
private struct Stored: Decodable {
    var count: Int
}

/// Parameters whose own decoding refuses a value with a `ServiceError`.
private struct Positive: Decodable, Sendable {
    var n: Int
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        n = try container.decode(Int.self, forKey: .n)
        if n <= 0 { throw ServiceError(.badParams, "test.positive: field \"n\": expected a number above 0") }
    }
    private enum CodingKeys: String, CodingKey { case n }
}

final class RegistryTests: XCTestCase {
    func call(_ registry: ServiceRegistry, _ name: String, _ json: String = "{}") async throws -> Result<JSONValue, ServiceError> {
        await registry.call(name, parameters: try JSONParser.parse(json).plain)
    }

    func testAnUnregisteredServiceIsGoneAndTheGenerationMoves() async throws {
        let registry = ServiceRegistry()
        registry.register("test.echo") { (order: Order) in order }
        let before = registry.generation
        registry.unregister("test.echo")
        XCTAssertGreaterThan(registry.generation, before)
        guard case .failure(let error) = try await call(registry, "test.echo", #"{"sku": "a", "qty": 1}"#) else { return XCTFail("still there") }
        XCTAssertEqual(error.code, .noService)
    }

    /// A service failing on its own data with a `DecodingError` is `E_FAILED`, not the
    /// caller's `E_BAD_PARAMS`, whether it is sync or async.
    /// A service found earlier starts as the registry has it now: replaced, it is the new one
    /// that runs; gone, there is no service.
    func testALookupStartsTheServiceAsItIsNow() throws {
        let registry = ServiceRegistry()
        registry.register("test.which") { (_: Order) in "first" }
        let lookup = registry.lookUp("test.which")
        let parameters = try JSONParser.parse(#"{"sku": "a", "qty": 1}"#).plain
        func answer() -> String {
            switch registry.start(lookup, parameters: parameters, caller: .host) {
            case .success(.finished(let value)): return "\(value)"
            case .success(.running): return "running"
            case .failure(let error): return error.code.rawValue
            }
        }
        XCTAssertEqual(answer(), "first")
        registry.register("test.which") { (_: Order) in "second" }
        XCTAssertEqual(answer(), "second")
        registry.unregister("test.which")
        XCTAssertEqual(answer(), ServiceError.Code.noService.rawValue)
    }

    func testADecodingErrorThrownByTheServiceIsAFailureNotBadParameters() async throws {
        let registry = ServiceRegistry()
        registry.register("test.sync") { (_: Order) -> Int in
            try JSONValueDecoder().decode(Stored.self, from: .object(JSONObject()))
                .count
        }
        registry.register("test.async") { (_: Order) async throws -> Int in
            try JSONValueDecoder().decode(Stored.self, from: .object(JSONObject())).count
        }
        for name in ["test.sync", "test.async"] {
            let result = try await call(registry, name, #"{"sku": "a", "qty": 1}"#)
            XCTAssertEqual(result.failureValue?.code, .failed, "\(name): \(result)")
            XCTAssertTrue(result.failureValue?.message.hasPrefix("\(name) failed: ") ?? false, "\(result)")
        }
    }

    func testServiceErrorsThrownByTheServiceOrItsParametersPassThrough() async throws {
        let registry = ServiceRegistry()
        registry.register("test.deny") { (_: Empty) -> Int in throw ServiceError(.denied, "test.deny: no") }
        registry.register("test.positive") { (request: Positive) in request.n }
        let denied = try await call(registry, "test.deny")
        XCTAssertEqual(denied.failureValue, ServiceError(.denied, "test.deny: no"))
        let refused = try await call(registry, "test.positive", #"{"n": 0}"#)
        XCTAssertEqual(refused.failureValue, ServiceError(.badParams, #"test.positive: field "n": expected a number above 0"#))
        let fine = try await call(registry, "test.positive", #"{"n": 2}"#).get()
        XCTAssertEqual(fine, .integer(2))
    }

    /// Parameter errors are still the caller's, named by field (the probe knows the fields).
    func testParameterErrorsStillNameTheField() async throws {
        let registry = ServiceRegistry()
        registry.register("cart.add") { (order: Order) in order.qty }
        registry.register("cart.later") { (order: Order) async in order.qty }
        for name in ["cart.add", "cart.later"] {
            let mismatch = try await call(registry, name, #"{"sku": "a", "qty": "two"}"#)
            XCTAssertEqual(mismatch.failureValue, ServiceError(.badParams, #"\#(name): field "qty": expected an integer, got "two""#))
            let missing = try await call(registry, name, #"{"qty": 1}"#)
            XCTAssertEqual(missing.failureValue, ServiceError(.badParams, #"\#(name): missing field "sku""#))
            let unknown = try await call(registry, name, #"{"sku": "a", "qty": 1, "qtty": 2}"#)
            XCTAssertEqual(unknown.failureValue?.code, .badParams)
            XCTAssertTrue(unknown.failureValue?.message.contains(#"unknown field "qtty"; did you mean "qty"?"#) ?? false, "\(unknown)")
        }
        XCTAssertEqual(registry.description(of: "cart.add")?.parameters.map(\.name), ["sku", "qty"])
    }

    func testTimeoutsDefaultToTheStandardForAsyncServicesOnly() throws {
        let registry = ServiceRegistry()
        registry.register("test.sync") { (_: Empty) in 1 }
        registry.register("test.async") { (_: Empty) async in 1 }
        registry.register("test.slow", timeout: 90) { (_: Empty) async in 1 }
        registry.register("test.quick", timeout: 0.5) { (_: Empty) async in 1 }
        registry.register("test.own", timeout: nil) { (_: Empty) async in 1 }
        XCTAssertEqual(ServiceRegistry.standardTimeout, 30)
        XCTAssertNil(registry.description(of: "test.sync")?.timeout)
        XCTAssertEqual(registry.description(of: "test.async")?.timeout, 30)
        XCTAssertEqual(registry.description(of: "test.slow")?.timeout, 90)
        XCTAssertNil(registry.description(of: "test.own")?.timeout)
        XCTAssertEqual(registry.description(of: "test.async")?.json["timeout"], .integer(30))
        XCTAssertEqual(registry.description(of: "test.quick")?.json["timeout"], .number(0.5))
        XCTAssertNil(registry.description(of: "test.own")?.json["timeout"])
        XCTAssertNil(registry.description(of: "test.sync")?.json["timeout"])
    }

    /// `net.request` bounds its own time (URLSession, the request's `timeout`), so the registry
    /// gives it no default that would cut off a script's `timeout: 60` at 30 s.
    func testNetRequestHasNoRegistryTimeout() async throws {
        let registry = ServiceRegistry()
        let folder = try makeTemporaryDirectory("hybrid-registry")
        BuiltInServices.register(in: registry, storage: KeyValueStore(folder: folder), screenSize: { .standard })
        XCTAssertNil(registry.description(of: "net.request")?.timeout)
        XCTAssertNil(registry.description(of: "net.request")?.json["timeout"])
        let server = try LoopbackHTTPServer { _ in .init(status: 200, body: "ok") }
        defer { server.stop() }
        let response = try await call(registry, "net.request", #"{"url": "http://127.0.0.1:\#(server.port)/", "timeout": 60}"#).get()
        XCTAssertEqual(response["body"], .string("ok"))
    }

    func testEncodeNamesTheServiceWhenTheAnswerCannotBeSent() {
        XCTAssertEqual(try ServiceRegistry.encode(["a": 1], from: "x.y").get(), .object(JSONObject([("a", .integer(1))])))
        let failure = ServiceRegistry.encode(Double.nan, from: "x.y").failureValue
        XCTAssertEqual(failure?.code, .failed)
        XCTAssertTrue(failure?.message.hasPrefix("x.y returned a value that cannot be sent to scripts: ") ?? false, "\(String(describing: failure))")
    }

    func testDurationsReadNaturally() {
        XCTAssertEqual(formatDuration(30), "30 s")
        XCTAssertEqual(formatDuration(30.0), "30 s")
        XCTAssertEqual(formatDuration(1.5), "1.5 s")
        XCTAssertEqual(formatDuration(2.25), "2.25 s")
        XCTAssertEqual(formatDuration(0.5), "0.5 s")
        XCTAssertEqual(formatDuration(0.2), "0.2 s")
        XCTAssertEqual(formatDuration(0.25), "250 ms")
        XCTAssertEqual(formatDuration(0.05), "50 ms")
        XCTAssertEqual(formatDuration(0.001), "1 ms")
        XCTAssertEqual(formatDuration(0.0005), "0.5 ms")
        XCTAssertEqual(formatDuration(0), "0 s")
        XCTAssertEqual(formatDuration(1), "1 s")
        XCTAssertEqual(formatDuration(0.9999), "1 s")
        XCTAssertEqual(formatDuration(-2), "-2 s")
        XCTAssertEqual(formatDuration(.infinity), "inf s")
    }
}
