import CJavaScriptCore
@testable import HybridJavaScript
import XCTest

/// Numbers, booleans, `null` and `undefined` are read from and made as the engine's own
/// encoded values, without engine calls: each must be exactly what the engine's calls give.
final class ImmediateValueTests: XCTestCase {
    /// Values a script computes (so made by the engine's interpreter and compilers, not only
    /// by the C API), at every edge of the encoding.
    static let computed = """
        [0, -0, 1, -1, 1.5, 7, 0.1 + 0.2, 2 ** 31, -(2 ** 31), 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 32, 2 ** 53 + 2,
         0 / 0, -(0 / 0), Infinity, -Infinity, Number.MIN_VALUE, Number.MAX_VALUE, Math.fround(1.1), 1e-310,
         true, false, null, undefined, 'text', {}, [], Symbol('s'), 10n, () => 1]
        """

    func testTheEngineEncodingIsVerifiedWithTheFirstContext() {
        let context = JavaScriptContext()
        XCTAssertNotNil(ImmediateValue(JSValueMakeNull(context.ref)), "this engine's encoding is the one ImmediateValue reads")
    }

    func testValuesAScriptComputesReadAsTheEngineReadsThem() throws {
        let context = JavaScriptContext()
        let array = try context.evaluate(Self.computed)
        let count = Int(array["length"].number)
        XCTAssertEqual(count, 31)
        var immediates = 0
        for index in 0..<count {
            let value = JSObjectGetPropertyAtIndex(context.ref, JSValueToObject(context.ref, array.ref, nil), UInt32(index), nil)!
            let type = JSValueGetType(context.ref, value)
            guard let read = ImmediateValue(value) else {
                XCTAssertTrue([kJSTypeString, kJSTypeObject, kJSTypeSymbol, kJSTypeBigInt].contains(type), "item \(index) is a cell")
                continue
            }
            immediates += 1
            XCTAssertEqual(read.type, type, "item \(index)")
            switch read {
            case .number(let number):
                let engine = JSValueToNumber(context.ref, value, nil)
                XCTAssertTrue(number.bitPattern == engine.bitPattern || (number.isNaN && engine.isNaN), "item \(index): \(number) against \(engine)")
            case .boolean(let boolean):
                XCTAssertEqual(boolean, JSValueToBoolean(context.ref, value), "item \(index)")
            case .null, .undefined:
                break
            }
        }
        XCTAssertEqual(immediates, 25)
    }

    func testNumbersMadeWithoutTheEngineAreTheOnesItMakes() throws {
        let context = JavaScriptContext()
        var generator = SystemRandomNumberGenerator()
        var numbers: [Double] = [0, -0.0, .nan, -.nan, .signalingNaN, .infinity, -.infinity, 2_147_483_647, -2_147_483_648, 2_147_483_648, 0.5]
        // Any bit pattern at all (NaNs with payloads included), and small integers.
        numbers += (0..<5_000).map { _ in Double(bitPattern: generator.next()) }
        numbers += (0..<1_000).map { _ in Double(Int32.random(in: .min ... .max, using: &generator)) }
        for number in numbers {
            let made = ImmediateValue.makeNumber(number, in: context.ref)
            let engine = JSValueMakeNumber(context.ref, number)!
            XCTAssertEqual(UInt(bitPattern: made), UInt(bitPattern: engine), "\(number) (\(String(number.bitPattern, radix: 16)))")
            XCTAssertEqual(ImmediateValue.number(of: made, in: context.ref).bitPattern, JSValueToNumber(context.ref, engine, nil).bitPattern)
        }
        // And a script sees them as the numbers they are.
        let same = try context.evaluate("(a, b) => Object.is(a, b)")
        for number in [-0.0, 3, 2.5, .nan, 1e300] {
            let result = try same.call(making: [{ context.makeNumber(number) }, { JavaScriptValue(JSValueMakeNumber(context.ref, number), in: context) }])
            XCTAssertTrue(result.boolean, "\(number)")
        }
    }

    func testBooleansMadeWithoutTheEngineAreItsOwn() throws {
        let context = JavaScriptContext()
        for flag in [true, false] {
            XCTAssertEqual(UInt(bitPattern: ImmediateValue.makeBoolean(flag, in: context.ref)), UInt(bitPattern: JSValueMakeBoolean(context.ref, flag)))
            let strict = try context.evaluate("(a) => a === \(flag)")
            XCTAssertTrue(try strict.call(making: [{ context.makeBoolean(flag) }]).boolean)
        }
    }
}
