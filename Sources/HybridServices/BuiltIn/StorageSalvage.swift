import HybridJSON

/// What can still be read of a damaged `storage.json`: each member of its top-level object is
/// parsed on its own, so one bad value (nested too deep, cut short, a stray byte) costs that
/// key only, never the keys that were fine.
///
/// The scan finds each member's extent by bracket counting (strings skipped, no recursion, so
/// no depth can overflow it) and hands the member's bytes to `JSONParser`. It stops where the
/// object's structure itself breaks (a file cut short): the members before that are kept.
enum StorageSalvage {
    /// The members that parse, in file order, and how many could not be read.
    static func salvage(_ bytes: [UInt8]) -> (values: JSONObject, lost: Int) {
        var scanner = Scanner(bytes: bytes)
        var values = JSONObject()
        var lost = 0
        guard scanner.take(UInt8(ascii: "{")) else { return (values, 0) }
        while let keyRange = scanner.string() {
            guard scanner.take(UInt8(ascii: ":")), let valueRange = scanner.value() else {
                lost += 1
                break
            }
            if case .string(let key)? = try? JSONParser.parse(Array(bytes[keyRange])).plain,
               let value = try? JSONParser.parse(Array(bytes[valueRange])).plain {
                values[key] = value
            } else {
                lost += 1
            }
            guard scanner.take(UInt8(ascii: ",")) else { break }
        }
        return (values, lost)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        /// Skips white space, then takes `byte` if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// The range of a string literal, quotes included; nil when none is next or it never ends.
        mutating func string() -> Range<Int>? {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return start..<index
                default: index += 1
                }
            }
            return nil
        }

        /// The range of one value: up to the `,` or `}` that ends it at its own level; nil when
        /// the file ends first.
        mutating func value() -> Range<Int>? {
            skipSpace()
            let start = index
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return nil }
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if depth == 0 { return start..<index }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 0 { return start..<index }
                default: break
                }
                index += 1
            }
            return nil
        }
    }
}
