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
}
