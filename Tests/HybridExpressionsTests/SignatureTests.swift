import Foundation
import XCTest
@testable import HybridExpressions

/// Every function and method of DivKit's signature files (for iOS or web) is registered in the
/// standard library with those argument types.
final class SignatureTests: XCTestCase {
    func testEverySignatureIsRegistered() throws {
        guard let root = Bundle.module.url(forResource: "Conformance", withExtension: nil)?
            .appendingPathComponent("divkit-expressions")
        else { return XCTFail("Conformance data missing from the test bundle") }
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.contains("signatures") }
        XCTAssertFalse(files.isEmpty)
        var checked = 0
        var missing: [String] = []
        for file in files.sorted() {
            let json = try TestJSON.parse(try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8))
            for signature in json["signatures"]?.array ?? [] {
                let platforms = signature["platforms"]?.array?.compactMap(\.string) ?? []
                guard platforms.contains("ios") || platforms.contains("web"),
                      let name = signature["function_name"]?.string else { continue }
                let isMethod = signature["is_method"] == .bool(true)
                let arguments = signature["arguments"]?.array ?? []
                let types = arguments.compactMap { $0["type"]?.string.flatMap(ExpressionType.init(rawValue:)) }
                let variadic = arguments.last?["vararg"] == .bool(true)
                let overloads = (isMethod ? FunctionLibrary.standard.methods[name] : FunctionLibrary.standard.functions[name]) ?? []
                checked += 1
                let found = overloads.contains { $0.parameters == types && (!variadic || $0.isVariadic) }
                if !found || types.count != arguments.count {
                    missing.append("\(file): \(isMethod ? "method " : "")\(name)(\(arguments.compactMap { $0["type"]?.string }.joined(separator: ", ")))")
                }
            }
        }
        print("DivKit signatures: \(checked - missing.count)/\(checked) registered")
        for entry in missing { XCTFail("not registered: \(entry)") }
    }
}
