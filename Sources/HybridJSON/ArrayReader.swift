/// The items of an array, read one by one as far as they are asked for. An array the parser
/// skimmed past (`SourceJSON.isUnparsed`) is parsed item by item, each item into a tape of its
/// own, so a long node list drawn in part is parsed in part (`DeferredNodes` in
/// HybridWidgets); a syntax error is found when the reading reaches it, with the offset and
/// message a parse of the whole array gives. Other arrays hand out the items parsed already.
public struct ArrayReader: Sendable {
    private let array: SourceJSON
    /// The items read so far, in order.
    public private(set) var items: [SourceJSON]
    /// Where the next item starts (just past the `[` or a `,`); nil once the array ended or
    /// a syntax error stopped the reading.
    private var next: Int?
    /// The syntax error that stopped the reading, if one did.
    public private(set) var syntaxError: JSONSyntaxError?

    /// A reader of `json`, or nil when it is no array.
    public init?(_ json: SourceJSON) {
        switch json.entry.tag {
        case .array:
            items = Array(json.items!)
            next = nil
        case .unparsedArray:
            items = []
            next = json.offset + 1
        default:
            return nil
        }
        array = json
    }

    /// Whether every item is read, or the reading stopped at a syntax error.
    public var isComplete: Bool { next == nil }

    /// The item at `index`, reading the items up to it first; nil past the last item, or at
    /// and after a syntax error.
    public mutating func item(at index: Int) -> SourceJSON? {
        while items.count <= index, let position = next {
            do {
                let read = try JSONParser.parseItem(ofUnparsedArray: array.entry, in: array.tape, at: position, isFirst: items.isEmpty)
                if let item = read.item { items.append(SourceJSON(tape: item, index: 0)) }
                next = read.next
            } catch {
                syntaxError = error
                next = nil
            }
        }
        return index < items.count ? items[index] : nil
    }
}
