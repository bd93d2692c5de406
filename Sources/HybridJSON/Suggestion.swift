/// Suggests the closest known name for a misspelt one ("colour" → "color").
public enum Suggestion {
    /// The closest candidate within a small edit distance, or `nil`.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        // A long word (a hostile megabyte key) is near no name: skip the quadratic distance.
        guard word.utf8.count <= 64 else { return nil }
        let lowered = Array(word.lowercased())
        let allowed = max(1, min(3, lowered.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let name = Array(candidate.lowercased())
            // The distance is at least the difference in length.
            guard abs(name.count - lowered.count) <= allowed else { continue }
            let distance = editDistance(lowered, name)
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        guard let best else { return nil }
        return best.distance <= allowed ? best.name : nil
    }

    /// `; did you mean "x"?` or nothing.
    public static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        closest(to: word, in: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// Edit distance counting a swap of neighbours ("bleu"/"blue") as one edit.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
