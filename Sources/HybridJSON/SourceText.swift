/// A source file's text, kept as bytes, that turns byte offsets into 1-based line and column
/// numbers (columns count characters, not bytes) only when an error needs them.
public struct SourceText: Sendable {
    /// The name shown in error locations, usually the path as the user typed it.
    public let name: String
    /// The UTF-8 bytes.
    public let bytes: [UInt8]

    /// Source with this display name and content.
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// Source with this display name and content.
    public init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }

    /// The 1-based line and column of a byte offset.
    public func location(of offset: Int) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // Continuation bytes (10xxxxxx) do not start a character.
        let column = bytes[lineStart..<end].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return (line, column)
    }

    /// `NAME:LINE:COL` for a byte offset.
    public func describe(_ offset: Int) -> String {
        let (line, column) = location(of: offset)
        return "\(name):\(line):\(column)"
    }

    /// `NAME:LINE:COL` for each of `offsets`, in their order, in one pass over the text: a
    /// file with many thousand problems is located in the time of reading it once, not once
    /// per problem.
    public func describe(_ offsets: [Int]) -> [String] {
        var located = [String](repeating: "", count: offsets.count)
        var line = 1
        var column = 1
        var position = 0
        for index in offsets.indices.sorted(by: { offsets[$0] < offsets[$1] }) {
            let end = min(max(offsets[index], 0), bytes.count)
            while position < end {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    // Continuation bytes (10xxxxxx) do not start a character.
                    column += 1
                }
                position += 1
            }
            located[index] = "\(name):\(line):\(column)"
        }
        return located
    }
}
