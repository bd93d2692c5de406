import Foundation
import HybridJSON
import HybridServices
import XCTest

// MARK: Fixtures

private enum Size: String, Codable, Equatable { case small, large }

private struct Line: Codable, Equatable {
    var sku: String
    var qty: Int
    var note: String?
}

private struct Cart: Codable, Equatable {
    var owner: String
    var size: Size
    var lines: [Line]
    var discount: Double?
    var tags: [String]
    var extra: JSONValue
}

private struct Widths: Codable, Equatable {
    var i: Int, i8: Int8, i16: Int16, i32: Int32, i64: Int64
    var u: UInt, u8: UInt8, u16: UInt16, u32: UInt32, u64: UInt64
    var f: Float, d: Double
}

/// Exercises nested keyed and unkeyed containers, `superDecoder`/`superEncoder` and `userInfo`,
/// which synthesized conformances do not reach.
private struct Handmade: Codable, Equatable {
    var point: (x: Int, y: Int)
    var flags: [Bool]
    var base: String
    var scale: Int

    static let scaleKey = CodingUserInfoKey(rawValue: "scale")!

    private enum Keys: String, CodingKey { case point, flags, base }
    private enum PointKeys: String, CodingKey { case x, y }

    init(point: (x: Int, y: Int), flags: [Bool], base: String, scale: Int) {
        (self.point, self.flags, self.base, self.scale) = (point, flags, base, scale)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let point = try container.nestedContainer(keyedBy: PointKeys.self, forKey: .point)
        self.point = (try point.decode(Int.self, forKey: .x), try point.decode(Int.self, forKey: .y))
        var flags = try container.nestedUnkeyedContainer(forKey: .flags)
        self.flags = []
        while !flags.isAtEnd { self.flags.append(try flags.decode(Bool.self)) }
        base = try container.superDecoder(forKey: .base).singleValueContainer().decode(String.self)
        scale = decoder.userInfo[Self.scaleKey] as? Int ?? 1
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var point = container.nestedContainer(keyedBy: PointKeys.self, forKey: .point)
        try point.encode(self.point.x, forKey: .x)
        try point.encode(self.point.y, forKey: .y)
        var flags = container.nestedUnkeyedContainer(forKey: .flags)
        for flag in self.flags { try flags.encode(flag) }
        var base = container.superEncoder(forKey: .base).singleValueContainer()
        try base.encode(self.base)
    }

    static func == (lhs: Handmade, rhs: Handmade) -> Bool {
        lhs.point == rhs.point && lhs.flags == rhs.flags && lhs.base == rhs.base && lhs.scale == rhs.scale
    }
}

private func object(_ members: (String, JSONValue)...) -> JSONValue { .object(JSONObject(members)) }

private func decodingError<T: Decodable>(
    _ type: T.Type, from value: JSONValue, file: StaticString = #filePath, line: UInt = #line
) -> DecodingError? {
    do {
        _ = try JSONValueDecoder().decode(type, from: value)
        XCTFail("expected a decoding error", file: file, line: line)
    } catch let error as DecodingError {
        return error
    } catch {
        XCTFail("unexpected error \(error)", file: file, line: line)
    }
    return nil
}

private func describe<T: Decodable>(_ type: T.Type, from value: JSONValue) -> (field: String?, message: String)? {
    decodingError(type, from: value).map(describeDecodingError)
}

final class CodingTests: XCTestCase {
    // MARK: Round trips

    func testNestedStructsArraysOptionalsEnumsAndJSONValueFieldsRoundTrip() throws {
        let value = object(
            ("owner", .string("ada")),
            ("size", .string("large")),
            ("lines", .array([
                object(("sku", .string("A-1")), ("qty", .integer(2)), ("note", .string("gift"))),
                object(("sku", .string("B-2")), ("qty", .number(3))),
            ])),
            ("tags", .array([])),
            ("extra", object(("z", .integer(1)), ("a", .number(1)), ("list", .array([.null, .bool(true)])))),
        )
        let cart = try JSONValueDecoder().decode(Cart.self, from: value)
        XCTAssertEqual(cart, Cart(
            owner: "ada", size: .large,
            lines: [Line(sku: "A-1", qty: 2, note: "gift"), Line(sku: "B-2", qty: 3, note: nil)],
            discount: nil, tags: [],
            extra: object(("z", .integer(1)), ("a", .number(1)), ("list", .array([.null, .bool(true)])))))

        let encoded = try JSONValueEncoder().encode(cart)
        // Absent optionals are left out; `3` decoded into an Int comes back as an integer; the
        // JSONValue field keeps its kinds and order.
        XCTAssertEqual(encoded.jsonText, #"{"owner":"ada","size":"large","lines":[{"sku":"A-1","qty":2,"note":"gift"},{"sku":"B-2","qty":3}],"tags":[],"extra":{"z":1,"a":1.0,"list":[null,true]}}"#)
        XCTAssertEqual(try JSONValueDecoder().decode(Cart.self, from: encoded), cart)
    }

    func testNullDecodesAsNilAndOptionalItems() throws {
        let line = try JSONValueDecoder().decode(Line.self, from: object(("sku", .string("x")), ("qty", .integer(1)), ("note", .null)))
        XCTAssertNil(line.note)
        let items = try JSONValueDecoder().decode([Int?].self, from: .array([.integer(1), .null]))
        XCTAssertEqual(items, [1, nil])
        XCTAssertEqual(try JSONValueEncoder().encode(items), .array([.integer(1), .null]))
    }

    func testJSONValueDecodesAndEncodesAsItself() throws {
        let value = object(("b", .integer(1)), ("a", .array([.number(2.5), .string("s"), .null])))
        XCTAssertEqual(try JSONValueDecoder().decode(JSONValue.self, from: value).objectValue?.keys, ["b", "a"])
        XCTAssertEqual(try JSONValueEncoder().encode(value), value)
        XCTAssertEqual(try JSONValueDecoder().decode([String: JSONValue].self, from: value)["a"], value["a"])
    }

    func testJSONValueConformanceWorksWithOtherCoders() throws {
        let value = object(("n", .integer(3)), ("x", .number(0.5)), ("s", .string("t")),
                           ("l", .array([.bool(false), .null])), ("o", object(("k", .integer(-1)))))
        let text = try JSONEncoder().encode(value)
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: text), value)
    }

    func testHandmadeContainersSuperCodersAndUserInfo() throws {
        var decoder = JSONValueDecoder()
        decoder.userInfo[Handmade.scaleKey] = 4
        let value = object(("point", object(("x", .integer(1)), ("y", .integer(-2)))),
                           ("flags", .array([.bool(true), .bool(false)])), ("base", .string("b")))
        let decoded = try decoder.decode(Handmade.self, from: value)
        XCTAssertEqual(decoded, Handmade(point: (1, -2), flags: [true, false], base: "b", scale: 4))
        XCTAssertEqual(try JSONValueEncoder().encode(decoded), value)
    }

    // MARK: Numbers

    func testEveryIntegerWidthAndFloatingPointRoundTrips() throws {
        let widths = Widths(i: -1, i8: -128, i16: 32767, i32: -2_147_483_648, i64: .max,
                            u: 7, u8: 255, u16: 65535, u32: 4_294_967_295, u64: UInt64(Int.max),
                            f: 0.1, d: 2)
        let encoded = try JSONValueEncoder().encode(widths)
        XCTAssertEqual(encoded["u8"], .integer(255))
        XCTAssertEqual(encoded["f"], .number(0.1), "a Float keeps its short decimal form")
        XCTAssertEqual(encoded["d"], .number(2), "a whole Double stays a number")
        XCTAssertEqual(try JSONValueDecoder().decode(Widths.self, from: encoded), widths)
    }

    func testIntegersAcceptWholeNumbersAndCheckTheirRange() throws {
        let decoder = JSONValueDecoder()
        XCTAssertEqual(try decoder.decode(Int.self, from: .number(3)), 3)
        XCTAssertEqual(try decoder.decode(UInt8.self, from: .number(255)), 255)
        XCTAssertEqual(try decoder.decode(Double.self, from: .integer(3)), 3)
        XCTAssertEqual(try decoder.decode(Float.self, from: .number(1.5)), 1.5)

        let cases: [(any Decodable.Type, JSONValue, String)] = [
            (UInt8.self, .integer(300), "number 300 does not fit UInt8"),
            (Int8.self, .integer(-129), "number -129 does not fit Int8"),
            (Int16.self, .integer(40000), "number 40000 does not fit Int16"),
            (Int32.self, .integer(1 << 40), "number 1099511627776 does not fit Int32"),
            (UInt.self, .integer(-1), "number -1 does not fit UInt"),
            (UInt16.self, .number(70000), "number 70000 does not fit UInt16"),
            (UInt32.self, .integer(-5), "number -5 does not fit UInt32"),
            (UInt64.self, .integer(-5), "number -5 does not fit UInt64"),
            (Int64.self, .number(1e20), "number 1e+20 does not fit Int64"),
            (Int.self, .number(3.5), "expected an integer, got 3.5"),
            (Int.self, .string("two"), #"expected an integer, got "two""#),
            (Double.self, .bool(true), "expected a number, got true"),
            (Float.self, .number(1e300), "number 1e+300 does not fit Float"),
            (Bool.self, .integer(1), "expected a boolean, got 1"),
            (String.self, .integer(3), "expected a string, got 3"),
        ]
        for (type, value, message) in cases {
            XCTAssertEqual(describe(type, from: value)?.message, message, "\(type) from \(value)")
            XCTAssertNil(describe(type, from: value)?.field)
        }
    }

    // MARK: Errors

    func testMissingFieldInsideAnArrayNamesTheItem() throws {
        let value = object(("owner", .string("ada")), ("size", .string("small")), ("tags", .array([])), ("extra", .null),
                           ("lines", .array([
                               object(("sku", .string("a")), ("qty", .integer(1))),
                               object(("sku", .string("b")), ("qty", .integer(1))),
                               object(("qty", .integer(1))),
                           ])))
        guard case .keyNotFound(let key, let context)? = decodingError(Cart.self, from: value) else {
            return XCTFail("expected keyNotFound")
        }
        XCTAssertEqual(key.stringValue, "sku")
        XCTAssertEqual(describeCodingPath(context.codingPath), "lines[2]")
        XCTAssertEqual(context.debugDescription, #"missing field "sku""#)
        let description = describeDecodingError(.keyNotFound(key, context))
        XCTAssertEqual(description.field, "lines[2]")
        XCTAssertEqual(description.message, #"missing field "sku""#)
    }

    func testTypeMismatchNamesTheExactField() throws {
        let value = object(("owner", .string("ada")), ("size", .string("small")), ("tags", .array([])), ("extra", .null),
                           ("lines", .array([
                               object(("sku", .string("a")), ("qty", .integer(1))),
                               object(("sku", .string("b")), ("qty", .integer(1))),
                               object(("sku", .string("c")), ("qty", .string("two"))),
                           ])))
        guard case .typeMismatch(_, let context)? = decodingError(Cart.self, from: value) else {
            return XCTFail("expected typeMismatch")
        }
        XCTAssertEqual(describeCodingPath(context.codingPath), "lines[2].qty")
        let description = describe(Cart.self, from: value)
        XCTAssertEqual(description?.field, "lines[2].qty")
        XCTAssertEqual(description?.message, #"expected an integer, got "two""#)
    }

    func testMessagesForContainersNullsMissingRootFieldsAndShortArrays() throws {
        XCTAssertEqual(describe(Line.self, from: .array([]))?.message, "expected an object, got an array")
        XCTAssertEqual(describe([Int].self, from: object())?.message, "expected an array, got an object")

        let null = describe(Line.self, from: object(("sku", .null), ("qty", .integer(1))))
        XCTAssertEqual(null?.field, "sku")
        XCTAssertEqual(null?.message, "expected a string, got null")
        guard case .valueNotFound? = decodingError(Line.self, from: object(("sku", .null), ("qty", .integer(1)))) else {
            return XCTFail("null for a required value is valueNotFound")
        }

        let missing = describe(Line.self, from: object(("qty", .integer(1))))
        XCTAssertNil(missing?.field, "a field missing from the parameter object has no parent field")
        XCTAssertEqual(missing?.message, #"missing field "sku""#)

        let short = describe(Handmade.self, from: object(("point", object(("x", .integer(1)))), ("flags", .array([])), ("base", .string(""))))
        XCTAssertEqual(short?.field, "point")
        XCTAssertEqual(short?.message, #"missing field "y""#)

        let size = describe(Cart.self, from: object(("owner", .string("a")), ("size", .string("huge"))))
        XCTAssertEqual(size?.field, "size", "an invalid raw value is reported at its field")
    }

    func testCodingPathsQuoteMembersThatAreNotIdentifiers() throws {
        let value = object(("headers", object(("content-type", .integer(1)))))
        let description = describe([String: [String: String]].self, from: value)
        XCTAssertEqual(description?.field, #"headers["content-type"]"#)
        XCTAssertEqual(description?.message, "expected a string, got 1")
    }

    // MARK: Encoder

    private struct Ordered: Encodable {
        var zeta = 1
        var alpha = "a"
        var mid: [Double] = [1, 2.5]
        var none: Int? = nil

        enum CodingKeys: CodingKey { case zeta, alpha, mid, none }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(zeta, forKey: .zeta)
            try container.encodeNil(forKey: .none)
            try container.encode(alpha, forKey: .alpha)
            try container.encode(mid, forKey: .mid)
            try container.encode(zeta + 1, forKey: .zeta)  // Encoding a key again keeps its place.
        }
    }

    func testEncoderKeepsMemberOrderAndKinds() throws {
        let value = try JSONValueEncoder().encode(Ordered())
        XCTAssertEqual(value.objectValue?.keys, ["zeta", "none", "alpha", "mid"])
        XCTAssertEqual(value.jsonText, #"{"zeta":2,"none":null,"alpha":"a","mid":[1.0,2.5]}"#)
        XCTAssertEqual(try JSONValueEncoder().encode(Empty()), object())
    }

    func testEncoderRejectsWhatJSONCannotHold() {
        XCTAssertThrowsError(try JSONValueEncoder().encode([Double.nan]))
        XCTAssertThrowsError(try JSONValueEncoder().encode(UInt64.max))
    }

    // MARK: Probe

    private struct Params: Decodable {
        var name: String
        var count: Int16
        var ratio: Double?
        var enabled: Bool
        var address: Line
        var items: [Line]
        var meta: JSONValue?
        var size: Size?
        var tagsByName: [String: Int]
    }

    func testProbeRecordsFieldsTypesAndOptionality() {
        let result = ParameterProbe.describe(Params.self)
        XCTAssertTrue(result.isKeyed)
        XCTAssertEqual(result.parameters.map(\.name), ["name", "count", "ratio", "enabled", "address", "items", "meta", "size", "tagsByName"])
        XCTAssertEqual(result.parameters.map(\.type), ["string", "integer", "number", "boolean", "object", "array", "any", "string", "object"])
        XCTAssertEqual(result.parameters.map(\.isRequired), [true, true, false, true, true, true, false, false, true])
        XCTAssertEqual(result.parameters.first, ParameterDescription(name: "name", type: "string", isRequired: true))
    }

    func testProbeOfEmptyIsKeyedWithNoFields() {
        // Empty's synthesized init(from:) asks for no container at all; it still takes only `{}`.
        let result = ParameterProbe.describe(Empty.self)
        XCTAssertTrue(result.isKeyed)
        XCTAssertTrue(result.parameters.isEmpty)
    }

    private struct Painted: Decodable {
        var label: String
        var size: Size  // Rejects the probe's "", which ends the probe here.
        var after: Int
    }

    private enum Command: Decodable {
        case move(x: Int)
        case stop
    }

    func testProbeKeepsWhatItFoundWhenTheTypeThrows() {
        let painted = ParameterProbe.describe(Painted.self)
        XCTAssertTrue(painted.isKeyed)
        XCTAssertEqual(painted.parameters.map(\.name), ["label", "size"])
        XCTAssertEqual(painted.parameters.map(\.type), ["string", "string"])

        let size = ParameterProbe.describe(Size.self)
        XCTAssertFalse(size.isKeyed, "a raw-value enum reads a single value")
        XCTAssertTrue(size.parameters.isEmpty)

        XCTAssertFalse(ParameterProbe.describe(Command.self).isKeyed, "an enum with payloads takes whichever key is there")
    }

    func testProbeOfTypesWithoutFixedKeys() {
        XCTAssertFalse(ParameterProbe.describe(JSONValue.self).isKeyed)
        XCTAssertFalse(ParameterProbe.describe([String: String].self).isKeyed)
        XCTAssertFalse(ParameterProbe.describe([Line].self).isKeyed)
        XCTAssertFalse(ParameterProbe.describe(String.self).isKeyed)
    }

    private final class Node: Decodable {
        let value: Int
        let next: Node?
        let children: [Node]
    }

    func testProbeStopsOnRecursiveTypes() {
        let result = ParameterProbe.describe(Node.self)
        XCTAssertEqual(result.parameters.map(\.name), ["value", "next", "children"])
        XCTAssertEqual(result.parameters.map(\.type), ["integer", "object", "array"])
        XCTAssertEqual(result.parameters.map(\.isRequired), [true, false, true])
    }
}
