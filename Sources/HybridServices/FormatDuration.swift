/// A duration for messages: `30 s`, `1.5 s`, `0.2 s`, `250 ms`, `0.5 ms`.
///
/// Seconds with at most three decimals and no trailing zeros; below one second, a value that
/// needs more than one decimal in seconds reads better in milliseconds (`250 ms`, not
/// `0.25 s`). Infinite and NaN values print as Swift prints them (`inf s`).
public func formatDuration(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e12 else { return "\(seconds) s" }
    let sign = seconds < 0 ? "-" : ""
    let magnitude = abs(seconds)
    // Thousandths of a second, rounded once, so the choice and the digits agree.
    let milliseconds = Int64((magnitude * 1000).rounded())
    if magnitude < 1 && (milliseconds % 100 != 0 || milliseconds == 0 && magnitude > 0) {
        // Thousandths of a millisecond, for the rare sub-millisecond value.
        let microseconds = Int64((magnitude * 1_000_000).rounded())
        return sign + decimal(microseconds) + " ms"
    }
    return sign + decimal(milliseconds) + " s"
}

/// `thousandths / 1000` with no trailing zeros: 30000 → `30`, 1500 → `1.5`, 250 → `0.25`.
private func decimal(_ thousandths: Int64) -> String {
    let whole = thousandths / 1000
    var fraction = String(thousandths % 1000)
    if fraction == "0" { return String(whole) }
    fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(whole).\(fraction)"
}
