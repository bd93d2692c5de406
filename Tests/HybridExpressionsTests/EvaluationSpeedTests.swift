import Foundation
import XCTest
import HybridExpressions

/// A rough speed check of the hot path (issue 6 benchmarks it properly against
/// JavaScriptCore). Prints the time per evaluation; asserts only correctness.
final class EvaluationSpeedTests: XCTestCase {
    func testBenchmarkExpressionSpeed() throws {
        let template = try ExpressionTemplate(parsing: "@{a + b * 2 > c ? 'x' : 'y'}")
        let scope = VariableScope(["a": .integer(1), "b": .integer(2), "c": .integer(3)])
        let iterations = 200_000
        var hits = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations where try template.evaluate(in: scope) == .string("x") { hits += 1 }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        print("Expression speed: \(Int(elapsed / Double(iterations))) ns per evaluation of a + b * 2 > c ? 'x' : 'y'")
        XCTAssertEqual(hits, iterations)
    }
}
