import Foundation
#if canImport(_FoundationICU)
import _FoundationICU
#endif

/// Regular-expression matching with a bound on its work, for patterns from documents and
/// bundles (`testRegex` in bindings, a param's `pattern`): a pattern such as `(a+)+$`
/// backtracks exponentially (30 characters take half a minute), and nothing an author writes
/// may hang a screen or `hybrid validate`. On Linux the ICU engine Foundation itself uses is
/// called directly, with its time limit; elsewhere (no such module) Foundation's
/// `NSRegularExpression` is used as is.
public enum BoundedRegex {
    /// Why a match could not be decided.
    public enum Failure: Error, Sendable {
        /// The pattern is not a regular expression.
        case invalid
        /// Matching took longer than the bound.
        case tooSlow
    }

    /// ICU's limit, in steps of its match engine (10,000 operations each, about a millisecond).
    static let timeLimit: Int32 = 1000

    /// Whether `pattern` matches somewhere in `text`.
    public static func matches(_ text: String, pattern: String) throws(Failure) -> Bool {
        #if canImport(_FoundationICU)
        var status = U_ZERO_ERROR
        let patternUnits = Array(pattern.utf16)
        guard let regex = swift_uregex_open(patternUnits, Int32(patternUnits.count), 0, nil, &status), status.rawValue <= 0 else {
            throw .invalid
        }
        defer { swift_uregex_close(regex) }
        swift_uregex_setTimeLimit(regex, timeLimit, &status)
        let textUnits = Array(text.utf16)
        return try textUnits.withUnsafeBufferPointer { (units) throws(Failure) -> Bool in
            swift_uregex_setText(regex, units.baseAddress, Int32(units.count), &status)
            let found = swift_uregex_find(regex, 0, &status)
            if status == U_REGEX_TIME_OUT || status == U_REGEX_STACK_OVERFLOW { throw .tooSlow }
            guard status.rawValue <= 0 else { throw .invalid }
            return found != 0
        }
        #else
        guard let regex = try? NSRegularExpression(pattern: pattern) else { throw .invalid }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        #endif
    }
}
