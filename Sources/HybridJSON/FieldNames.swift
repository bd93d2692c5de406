#if canImport(Glibc)
import Glibc
#endif

/// The names an object's members may have, kept as bytes to compare with keys in place on the
/// tape: every node's members are checked against its type's fields, and comparing each key
/// with each name as a `String` was a tenth of decoding a line of text.
public struct FieldNames: Sendable {
    /// The names, in the order given.
    public let names: [String]
    private let bytes: [[UInt8]]

    /// The names `names`.
    public init(_ names: [String]) {
        self.names = names
        bytes = names.map { Array($0.utf8) }
    }

    /// Whether `key` (a key's UTF-8, escapes decoded) is one of the names.
    func contains(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        // `memcmp`, as `elementsEqual` took twice the time of the whole check.
        bytes.contains { name in
            name.count == key.count && (key.isEmpty || name.withUnsafeBytes { memcmp($0.baseAddress!, key.baseAddress!, key.count) } == 0)
        }
    }
}

extension SourceJSON.Members {
    /// Whether every member is named in `names` and none is named twice: that is, whether
    /// `unexpected(allowing: names.names)` finds nothing, known in one walk without building
    /// a key. Objects of more than 16 members are not looked at (false).
    public func areAllNamed(in names: FieldNames) -> Bool {
        guard count <= 16 else { return false }
        var position = object + 1
        let end = tape.entries[object].payload
        while position < end {
            guard tape.withUTF8(ofStringAt: position, { names.contains($0) }),
                  !tape.hasEarlierKey(like: position, inObjectAt: object) else { return false }
            position = tape.next(after: position + 1)
        }
        return true
    }
}
