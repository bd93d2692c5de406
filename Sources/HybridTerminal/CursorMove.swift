/// The ways the encoder can move the cursor, with their byte costs.
enum CursorMove {
    /// CUP `ESC [row;colH` (shortened when row or column is 1).
    case absolute
    /// CR, then LF or CUU/CUD, then CUF.
    case carriageReturn
    /// CHA `ESC [colG` (same row).
    case column
    /// CUU/CUD then CUF/CUB from the current position.
    case relative
    /// Re-print the unchanged glyphs between the cursor and the target.
    case rewrite

    /// Cost of CUP to (x, y), zero-based.
    static func absoluteCost(x: Int, y: Int) -> Int {
        if x == 0 && y == 0 { return 3 }                        // ESC [H
        if x == 0 { return 3 + decimalLength(y + 1) }            // ESC [rH
        return 4 + decimalLength(y + 1) + decimalLength(x + 1)   // ESC [r;cH
    }

    /// Cost of a CSI sequence with one count parameter (omitted when 1).
    static func countedCost(_ n: Int) -> Int { n == 1 ? 3 : 3 + decimalLength(n) }

    /// Cost of moving `dy` rows; line feeds are only allowed after a carriage return, where a
    /// terminal that turns LF into CR LF (ONLCR) ends up in the same place.
    static func verticalCost(_ dy: Int, lineFeeds: Bool) -> Int {
        if dy == 0 { return 0 }
        if dy > 0 && lineFeeds { return Swift.min(dy, countedCost(dy)) }
        return countedCost(abs(dy))
    }

    /// Cost of moving `dx` columns on the same row.
    static func horizontalCost(_ dx: Int) -> Int { dx == 0 ? 0 : countedCost(abs(dx)) }

    static func appendVertical(_ dy: Int, lineFeeds: Bool, into out: inout [UInt8]) {
        if dy == 0 { return }
        if dy > 0 && lineFeeds && dy <= countedCost(dy) {
            for _ in 0..<dy { out.append(0x0A) }
            return
        }
        appendCounted(abs(dy), final: dy > 0 ? 0x42 : 0x41, into: &out)   // CUD "B" / CUU "A"
    }

    static func appendHorizontal(_ dx: Int, into out: inout [UInt8]) {
        if dx == 0 { return }
        appendCounted(abs(dx), final: dx > 0 ? 0x43 : 0x44, into: &out)   // CUF "C" / CUB "D"
    }

    private static func appendCounted(_ n: Int, final: UInt8, into out: inout [UInt8]) {
        out.appendCSI()
        if n != 1 { out.appendDecimal(n) }
        out.append(final)
    }
}
