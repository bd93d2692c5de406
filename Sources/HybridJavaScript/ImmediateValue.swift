import CJavaScriptCore
import Synchronization

/// A JavaScript value that is no cell (a number, a boolean, `null` or `undefined`), read from
/// and written to a `JSValueRef` without an engine call.
///
/// Every call into JavaScriptCore's C API takes the engine's lock and asks for the current
/// thread, about 300 instructions even when the lock is held: reading a number parameter took
/// two such calls (its type, then its value), more than the rest of reading it. On 64-bit
/// machines a `JSValueRef` is the engine's encoded value itself, a cell pointer or a tagged
/// immediate (JavaScriptCore's `JSValue` encoding: 32-bit integers under the tag `0xfffe…`,
/// doubles offset by 2⁴⁹, `null` 2, `undefined` 10, `false` 6, `true` 7). That encoding is
/// the engine's own and not promised by its API, so it is checked against the engine's calls
/// once, with the first context (`verify(in:)`); until then, and for ever if it differs, both
/// directions answer nil and callers make the engine call.
enum ImmediateValue: Equatable {
    case undefined
    case null
    case boolean(Bool)
    case number(Double)

    /// `ref`'s value, or nil when it is a cell (a string, object, symbol or big integer), an
    /// immediate this type does not know, or the encoding is unverified.
    @inline(__always)
    init?(_ ref: JSValueRef) {
        guard Self.isVerified.load(ordering: .relaxed) else { return nil }
        self.init(decoding: UInt64(UInt(bitPattern: ref)))
    }

    /// The JavaScript number `number`, as the engine makes it (`JSValueMakeNumber`), or nil
    /// when the encoding is unverified.
    @inline(__always)
    private static func ref(for number: Double) -> JSValueRef? {
        guard isVerified.load(ordering: .relaxed) else { return nil }
        return JSValueRef(bitPattern: UInt(encoding(number)))
    }

    /// `true` or `false`, as the engine makes them, or nil when the encoding is unverified.
    @inline(__always)
    private static func ref(for boolean: Bool) -> JSValueRef? {
        guard isVerified.load(ordering: .relaxed) else { return nil }
        return JSValueRef(bitPattern: boolean ? trueBits : falseBits)
    }

    // MARK: Engine calls, made only for what is no verified immediate

    /// `JSValueGetType(context, ref)`.
    @inline(__always)
    static func type(of ref: JSValueRef, in context: JSContextRef) -> JSType {
        ImmediateValue(ref)?.type ?? JSValueGetType(context, ref)
    }

    /// `JSValueToNumber(context, ref, nil)`.
    @inline(__always)
    static func number(of ref: JSValueRef, in context: JSContextRef) -> Double {
        if case .number(let number)? = ImmediateValue(ref) { return number }
        return JSValueToNumber(context, ref, nil)
    }

    /// `JSValueToBoolean(context, ref)` of a boolean.
    @inline(__always)
    static func boolean(of ref: JSValueRef, in context: JSContextRef) -> Bool {
        if case .boolean(let boolean)? = ImmediateValue(ref) { return boolean }
        return JSValueToBoolean(context, ref)
    }

    /// `JSValueMakeNumber(context, number)`.
    @inline(__always)
    static func makeNumber(_ number: Double, in context: JSContextRef) -> JSValueRef {
        ref(for: number) ?? JSValueMakeNumber(context, number)
    }

    /// `JSValueMakeBoolean(context, boolean)`.
    @inline(__always)
    static func makeBoolean(_ boolean: Bool, in context: JSContextRef) -> JSValueRef {
        ref(for: boolean) ?? JSValueMakeBoolean(context, boolean)
    }

    /// The engine's type of the value.
    var type: JSType {
        switch self {
        case .undefined: kJSTypeUndefined
        case .null: kJSTypeNull
        case .boolean: kJSTypeBoolean
        case .number: kJSTypeNumber
        }
    }

    // MARK: The encoding

    private static let numberTag: UInt64 = 0xfffe_0000_0000_0000
    private static let doubleOffset: UInt64 = 1 << 49
    private static let nullBits: UInt = 0x02
    private static let undefinedBits: UInt = 0x0a
    private static let falseBits: UInt = 0x06
    private static let trueBits: UInt = 0x07

    private init?(decoding bits: UInt64) {
        if bits & Self.numberTag == Self.numberTag {
            self = .number(Double(Int32(truncatingIfNeeded: bits)))
        } else if bits & Self.numberTag != 0 {
            self = .number(Double(bitPattern: bits &- Self.doubleOffset))
        } else {
            switch UInt(bits) {
            case Self.nullBits: self = .null
            case Self.undefinedBits: self = .undefined
            case Self.falseBits: self = .boolean(false)
            case Self.trueBits: self = .boolean(true)
            default: return nil
            }
        }
    }

    /// As the engine encodes a number: a 32-bit integer when the value is one (not -0), else
    /// the double, its NaNs made the one NaN the engine uses.
    private static func encoding(_ number: Double) -> UInt64 {
        if let integer = Int32(exactly: number), integer != 0 || number.sign == .plus {
            return numberTag | UInt64(UInt32(bitPattern: integer))
        }
        return (number.isNaN ? Double.nan : number).bitPattern &+ doubleOffset
    }

    // MARK: Checking it against the engine

    private static let isVerified = Atomic(false)
    private static let verification = Mutex<Bool?>(nil)

    /// Checks the encoding against the engine's own calls in `context`, the first time only;
    /// from then on, if it matched, the fast paths above answer.
    static func verify(in context: JSContextRef) {
        verification.withLock { verified in
            guard verified == nil else { return }
            let matches = encodingMatches(in: context)
            verified = matches
            isVerified.store(matches, ordering: .relaxed)
        }
    }

    /// Numbers at every edge of the encoding (integers and not, -0, NaN, infinities, the
    /// 32-bit bounds), the other immediates and two cells, each made by the engine and read
    /// back both ways.
    private static func encodingMatches(in context: JSContextRef) -> Bool {
        let numbers: [Double] = [0, -0.0, 1, -1, 2.5, 3, 0.1, -7.25, 1e300, -1e-300, .nan, .infinity, -.infinity,
                                 Double(Int32.max), Double(Int32.min), Double(Int32.max) + 1, Double(Int32.min) - 1,
                                 4_294_967_296, 9_007_199_254_740_993, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        for number in numbers {
            let made = JSValueMakeNumber(context, number)!
            guard UInt64(UInt(bitPattern: made)) == encoding(number),
                  case .number(let read)? = ImmediateValue(decoding: UInt64(UInt(bitPattern: made))),
                  read.bitPattern == JSValueToNumber(context, made, nil).bitPattern,
                  JSValueGetType(context, made) == kJSTypeNumber else { return false }
        }
        let others: [(JSValueRef, ImmediateValue)] = [
            (JSValueMakeNull(context), .null), (JSValueMakeUndefined(context), .undefined),
            (JSValueMakeBoolean(context, false), .boolean(false)), (JSValueMakeBoolean(context, true), .boolean(true)),
        ]
        for (made, expected) in others {
            guard ImmediateValue(decoding: UInt64(UInt(bitPattern: made))) == expected,
                  JSValueGetType(context, made) == expected.type else { return false }
        }
        let text = JavaScriptContext.makeJSString("text")
        defer { JSStringRelease(text) }
        let cells: [JSValueRef] = [JSValueMakeString(context, text), JSObjectMake(context, nil, nil)]
        return cells.allSatisfy { ImmediateValue(decoding: UInt64(UInt(bitPattern: $0))) == nil }
    }
}
