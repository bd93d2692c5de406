extension SourceJSON {
    /// One `"key": value` pair of an object, in source order.
    public struct Member: Sendable {
        @usableFromInline let tape: JSONTape
        /// The tape index of the key; the value follows it.
        @usableFromInline let keyIndex: Int

        @usableFromInline
        init(tape: JSONTape, keyIndex: Int) {
            self.tape = tape
            self.keyIndex = keyIndex
        }

        /// The key.
        public var key: String { tape.string(at: keyIndex) }
        /// Whether the key is `name`, compared as bytes without building the key.
        @inlinable
        public func hasKey(_ name: StaticString) -> Bool { tape.string(at: keyIndex, equals: name) }
        /// Byte offset of the key's opening quote.
        @inlinable
        public var keyOffset: Int { tape.entries[keyIndex].offset }
        /// The value.
        @inlinable
        public var value: SourceJSON { SourceJSON(tape: tape, index: keyIndex + 1) }
    }

    /// The members of an object, in source order, read in place from the parse tree.
    public struct Members: Collection, Sendable {
        /// A position among the members.
        public struct Index: Comparable, Hashable, Sendable {
            /// The tape index of the member's key.
            @usableFromInline let key: Int

            @usableFromInline
            init(key: Int) {
                self.key = key
            }

            @inlinable
            public static func < (lhs: Index, rhs: Index) -> Bool { lhs.key < rhs.key }
        }

        @usableFromInline let tape: JSONTape
        @usableFromInline let object: Int

        @usableFromInline
        init(tape: JSONTape, object: Int) {
            self.tape = tape
            self.object = object
        }

        @inlinable
        public var startIndex: Index { Index(key: object + 1) }
        @inlinable
        public var endIndex: Index { Index(key: tape.entries[object].payload) }
        /// The number of members, known without walking them.
        @inlinable
        public var count: Int { Int(tape.entries[object].count) }
        /// Whether there are none, known without walking them.
        @inlinable
        public var isEmpty: Bool { count == 0 }

        @inlinable
        public func index(after position: Index) -> Index {
            Index(key: tape.next(after: position.key + 1))
        }

        @inlinable
        public subscript(position: Index) -> Member {
            Member(tape: tape, keyIndex: position.key)
        }

        /// The positions of the members whose key repeats an earlier key of the object. Small objects
        /// (nearly all) compare their keys pairwise on the tape; large ones hash them, so a
        /// hostile object of many thousand members costs one pass.
        public func repeatedKeys() -> Set<Index> {
            var repeated = Set<Index>()
            var position = object + 1
            let end = tape.entries[object].payload
            if count <= 32 {
                while position < end {
                    if tape.hasEarlierKey(like: position, inObjectAt: object) { repeated.insert(Index(key: position)) }
                    position = tape.next(after: position + 1)
                }
                return repeated
            }
            var seen = Set<[UInt8]>()
            while position < end {
                if !tape.withUTF8(ofStringAt: position, { seen.insert(Array($0)).inserted }) { repeated.insert(Index(key: position)) }
                position = tape.next(after: position + 1)
            }
            return repeated
        }

        /// The members a strict reader reports, in order: those whose key repeats an earlier
        /// one, and those whose key is not in `names`. Checked on the tape without building
        /// keys, since most objects have none.
        public func unexpected(allowing names: [String]) -> [(member: Member, isDuplicate: Bool)] {
            var found: [(member: Member, isDuplicate: Bool)] = []
            let repeated = repeatedKeys()
            var position = object + 1
            let end = tape.entries[object].payload
            while position < end {
                if repeated.contains(Index(key: position)) {
                    found.append((Member(tape: tape, keyIndex: position), true))
                } else if !names.contains(where: { tape.string(at: position, equals: $0) }) {
                    found.append((Member(tape: tape, keyIndex: position), false))
                }
                position = tape.next(after: position + 1)
            }
            return found
        }
    }

    /// The items of an array, in order, read in place from the parse tree.
    public struct Items: Collection, Sendable {
        /// A position among the items.
        public struct Index: Comparable, Sendable {
            /// The tape index of the item.
            @usableFromInline let value: Int

            @usableFromInline
            init(value: Int) {
                self.value = value
            }

            @inlinable
            public static func < (lhs: Index, rhs: Index) -> Bool { lhs.value < rhs.value }
        }

        @usableFromInline let tape: JSONTape
        @usableFromInline let array: Int

        @usableFromInline
        init(tape: JSONTape, array: Int) {
            self.tape = tape
            self.array = array
        }

        @inlinable
        public var startIndex: Index { Index(value: array + 1) }
        @inlinable
        public var endIndex: Index { Index(value: tape.entries[array].payload) }
        /// The number of items, known without walking them.
        @inlinable
        public var count: Int { Int(tape.entries[array].count) }
        /// Whether there are none, known without walking them.
        @inlinable
        public var isEmpty: Bool { count == 0 }

        @inlinable
        public func index(after position: Index) -> Index {
            Index(value: tape.next(after: position.value))
        }

        @inlinable
        public subscript(position: Index) -> SourceJSON {
            SourceJSON(tape: tape, index: position.value)
        }
    }
}
