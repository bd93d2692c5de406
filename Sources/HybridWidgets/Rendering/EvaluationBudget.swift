import HybridDocument

/// What one frame's expressions may cost in all. Each expression is bounded on its own
/// (`ExpressionLimits`: a string of at most 1 MiB, a regular expression stopped after a
/// fraction of a second), but a long list repeats its bindings for every item, and ten
/// thousand items each at their own limit would still take minutes and gigabytes. Past this
/// budget the frame's remaining expressions render empty, reported once.
struct EvaluationBudget {
    /// The time all of a frame's expressions may take.
    static let maximumTime: Duration = .seconds(2)
    /// The text all of a frame's expressions may make.
    static let maximumTextBytes = 16 << 20

    /// When the first expression was evaluated: a frame's later views are resolved a few at
    /// a time as layout reaches them, each batch with a budget of its own, mostly for text
    /// without expressions.
    private var start: ContinuousClock.Instant?
    private var textBytes = 0
    /// Whether the budget ran out (and was reported).
    private(set) var isSpent = false

    /// Whether another expression may be evaluated; false once either bound is passed.
    mutating func allows() -> Bool {
        guard !isSpent else { return false }
        let now = ContinuousClock.now
        if start == nil { start = now }
        if textBytes > Self.maximumTextBytes || now - start! > Self.maximumTime { isSpent = true }
        return !isSpent
    }

    /// Counts text an expression made.
    mutating func spend(_ text: String) {
        textBytes += text.utf8.count
    }

    static let message = "this frame's expressions take more than \(maximumTime.components.seconds) s or make more than \(maximumTextBytes >> 20) MiB of text; the rest render empty"
}

extension PropertyValue {
    /// Where the first expression in this value is, for a report about it.
    var firstLocation: ExpressionLocation? {
        switch self {
        case .constant: return nil
        case .expression(_, _, let location): return location
        case .array(let items): return items.lazy.compactMap(\.firstLocation).first
        case .object(let members): return members.lazy.compactMap(\.value.firstLocation).first
        }
    }
}
