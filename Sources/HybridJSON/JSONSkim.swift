/// Finds where an array or object ends by its brackets and strings alone, without parsing
/// what is inside: how the parser passes a node list it keeps unparsed
/// (`JSONParser.parse(_:deferringNodeLists:)`), a few instructions a byte.
enum JSONSkim {
    /// The offset just past the array or object starting at `start`, inside `depth` levels
    /// of nesting. Only what a skim can see is reported: a string or the value cut off by
    /// the end of input, and nesting past `JSONParser.maximumDepth`.
    static func end(ofValueAt start: Int, in bytes: UnsafeBufferPointer<UInt8>, depth: Int) throws(JSONSyntaxError) -> Int {
        var position = start
        var nesting = 0
        let count = bytes.count
        while position < count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                let quote = position
                position += 1
                while position < count, bytes[position] != UInt8(ascii: "\"") {
                    position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard position < count else { throw JSONSyntaxError(offset: quote, message: "unterminated string") }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                nesting += 1
                guard depth + nesting <= JSONParser.maximumDepth else {
                    throw JSONSyntaxError(offset: position, message: "nesting deeper than \(JSONParser.maximumDepth) levels")
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                nesting -= 1
                if nesting == 0 { return position + 1 }
            default:
                break
            }
            position += 1
        }
        throw JSONSyntaxError(offset: count, message: "unexpected end of input inside an array")
    }
}
