import HybridCells

/// A band of whole rows that moved up or down between two frames, as when a scroll view
/// scrolls: the terminal moves them itself with delete line and insert line (DL `ESC [n M`,
/// IL `ESC [n L`, VT102), so only the rows that come into view are sent, not every visible row
/// again. ncurses does the same; it is what brings a one-line scroll from kilobytes to the
/// size of one row.
///
/// DL and IL are used rather than a scroll region (DECSTBM and `ESC [S`/`ESC [T`): a region is
/// terminal state that would outlive a process killed between setting and resetting it, and
/// the two cost about the same bytes.
struct LineShift: Equatable {
    /// First row of the band the operation changes (zero-based).
    let top: Int
    /// Last row of that band (inclusive).
    let bottom: Int
    /// Rows the content moves: positive up (scrolling towards the end), negative down.
    let distance: Int

    /// Shifts of fewer rows than this are not worth looking for: two changed rows cost less
    /// to rewrite than a search costs to run.
    static let minimumChangedRows = 3
    /// How many changed rows are tried as anchors of a shift.
    private static let anchors = 4

    /// The row of the previous frame that the terminal shows at row `y` after the shift, or
    /// nil where the shift leaves a blank row.
    func source(ofRow y: Int) -> Int? {
        guard y >= top && y <= bottom else { return y }
        let from = y + distance
        return from >= top && from <= bottom ? from : nil
    }

    /// Appends the bytes that make the terminal move the band, to be sent with the pen plain
    /// (inserted lines take the current background).
    ///
    /// - Returns: the row the cursor is left on; IL and DL leave it in the first column.
    func append(into out: inout [UInt8], height: Int) -> Int {
        let count = abs(distance)
        let reachesBottom = bottom == height - 1
        if distance > 0 {
            // Delete at the top: everything below moves up and blank rows enter at the
            // screen's bottom; rows below the band are then pushed back down by inserting.
            Self.appendLineOperation("M", count: count, atRow: top, into: &out)
            guard !reachesBottom else { return top }
            Self.appendLineOperation("L", count: count, atRow: bottom - count + 1, into: &out)
            return bottom - count + 1
        } else {
            // Delete the band's last rows first so that inserting at its top pushes the rows
            // below it back where they were.
            if !reachesBottom { Self.appendLineOperation("M", count: count, atRow: bottom - count + 1, into: &out) }
            Self.appendLineOperation("L", count: count, atRow: top, into: &out)
            return top
        }
    }

    private static func appendLineOperation(_ final: Character, count: Int, atRow row: Int, into out: inout [UInt8]) {
        out.appendCSI()
        if row > 0 { out.appendDecimal(row + 1) }
        out.append(0x48)   // "H": column 1 of `row`
        out.appendCSI()
        if count > 1 { out.appendDecimal(count) }
        out.append(final.asciiValue!)
    }

    /// The shift that saves the most rows between `previous` and `next` (row-major cells of
    /// `width` × `height`), or nil when none saves at least two.
    ///
    /// Candidates come from a few changed, non-blank anchor rows: every earlier or later row of
    /// the previous frame equal to an anchor gives a distance, and the band grows around the
    /// anchor while rows keep matching at that distance, nearly (a few cells may differ, as
    /// where a scroll view draws its ▲/▼ marks over the first and last rows; the diff then
    /// writes those cells). A band's worth is the changed rows it fixes minus the unchanged,
    /// non-blank rows it blanks.
    ///
    /// - Parameter changed: for each row, whether `next` differs from `previous` there.
    static func find(previous: UnsafeBufferPointer<Cell>, next: UnsafeBufferPointer<Cell>,
                     width: Int, height: Int, changed: [Bool]) -> LineShift? {
        let rows = FrameRows(previous: previous, next: next, width: width)
        var best: LineShift?
        var bestWorth = 1
        var anchorsTried = 0
        // A band is the widest run of rows matching at its distance, so an anchor inside one
        // found already would only find it again (a scroll's anchors mostly are).
        var found: [LineShift] = []
        for anchor in 0..<height where changed[anchor] && !rows.nextIsBlank(anchor) {
            for from in 0..<height where from != anchor && rows.equal(next: anchor, previous: from) {
                let distance = from - anchor
                if found.contains(where: { $0.distance == distance && $0.movedRows.contains(anchor) }) { continue }
                let shift = rows.band(around: anchor, distance: distance, height: height)
                found.append(shift)
                let worth = shift.worth(rows: rows, changed: changed)
                if worth > bestWorth {
                    best = shift
                    bestWorth = worth
                }
            }
            anchorsTried += 1
            if anchorsTried == anchors { break }
        }
        return best
    }

    /// The rows of the new frame that the shift fills with moved rows (the run `band` grew).
    var movedRows: ClosedRange<Int> {
        distance > 0 ? top...(bottom - distance) : (top - distance)...bottom
    }

    /// Changed rows this shift fixes minus the rows it breaks.
    private func worth(rows: FrameRows, changed: [Bool]) -> Int {
        var worth = 0
        for y in top...bottom {
            if source(ofRow: y) != nil {
                // A moved row (nearly) matches by construction of the band.
                if changed[y] { worth += 1 }
            } else if !changed[y] && !rows.nextIsBlank(y) {
                worth -= 1
            }
        }
        return worth
    }
}

private extension FrameRows {
    /// The widest band around `anchor` whose rows all nearly match at `distance`.
    func band(around anchor: Int, distance: Int, height: Int) -> LineShift {
        var first = anchor, last = anchor
        while first > 0, first - 1 + distance >= 0, nearlyEqual(next: first - 1, previous: first - 1 + distance) { first -= 1 }
        while last + 1 < height, last + 1 + distance < height, nearlyEqual(next: last + 1, previous: last + 1 + distance) { last += 1 }
        // The band spans the rows the content moves between: for an upward move, from
        // where it lands to where it came from.
        return distance > 0
            ? LineShift(top: first, bottom: last + distance, distance: distance)
            : LineShift(top: first + distance, bottom: last, distance: distance)
    }
}
