import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HybridFiles
import HybridJSON
import Logging

/// One app's persistent values: a JSON object in one file, rewritten atomically (`AtomicFile`:
/// a temporary file, flushed, renamed over the old one, the folder flushed so the rename itself
/// survives a crash), so a crash mid-write leaves the previous values intact. A lock file
/// (`FileLock`) serializes writers, whether in several processes or several stores in one process.
///
/// A damaged `storage.json` (not a JSON object) makes reads fail with a message naming it; the
/// next write moves it aside to `storage.json.damaged-<unix time>` (nothing is deleted), logs
/// that once, and goes on with every key that can still be read (`StorageSalvage`), so one bad
/// value costs that key only and one bad file does not block every later write.
///
/// What could not be read back is refused when written: a value nested deeper than
/// `JSONParser` reads (`maximumValueDepth`) is `E_BAD_PARAMS`.
public final class KeyValueStore: Sendable {
    /// The file holding the values.
    public let file: URL

    private static let logger = Logger(label: "hybridterm.storage")

    /// A store kept in `folder/storage.json`.
    public init(folder: URL) {
        file = folder.appendingPathComponent("storage.json")
    }

    /// The store of `app` in its data folder (`AppDataFolder`).
    ///
    /// - Throws: `ServiceError` (`E_BAD_PARAMS`) when `app` is not a plain folder name (see
    ///   `AppDataFolder.path(for:environment:)`).
    public static func forApp(_ app: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> KeyValueStore {
        guard let folder = AppDataFolder.path(for: app, environment: environment) else {
            throw ServiceError(.badParams, "storage: the app name \"\(app)\" is not a plain folder name (no \"/\", no leading \".\", not empty)")
        }
        return KeyValueStore(folder: URL(fileURLWithPath: folder))
    }

    /// The value under `key`, or nil.
    public func value(for key: String) throws -> JSONValue? {
        try Self.check(key)
        return try read()[key]
    }

    /// Every key, in the order first stored.
    public func keys() throws -> [String] {
        try read().keys
    }

    /// Stores `value` under `key`.
    /// - Throws: `ServiceError` (`E_BAD_PARAMS`) for a value nested deeper than `maximumValueDepth`.
    public func set(_ value: JSONValue, for key: String) throws {
        try Self.check(key)
        let depth = Self.depth(of: value)
        guard depth <= Self.maximumValueDepth else {
            throw ServiceError(.badParams, "storage.set: field \"value\": nests \(depth) levels of arrays and objects; "
                               + "at most \(Self.maximumValueDepth) can be stored and read back")
        }
        try update { $0[key] = value }
    }

    /// The deepest value stored: the file's own object around it is one more level, and
    /// `JSONParser` reads `JSONParser.maximumDepth`.
    public static let maximumValueDepth = JSONParser.maximumDepth - 1

    /// How many arrays and objects nest in `value` (without recursion: the value may be too deep
    /// for it).
    static func depth(of value: JSONValue) -> Int {
        var deepest = 0
        var pending: [(JSONValue, Int)] = [(value, 0)]
        while let (value, level) = pending.popLast() {
            switch value {
            case .array(let items):
                deepest = max(deepest, level + 1)
                pending += items.map { ($0, level + 1) }
            case .object(let object):
                deepest = max(deepest, level + 1)
                pending += object.map { ($0.value, level + 1) }
            default:
                break
            }
        }
        return deepest
    }

    /// Forgets `key` (nothing happens when it is not there).
    public func remove(_ key: String) throws {
        try Self.check(key)
        try update { $0[key] = nil }
    }

    private static func check(_ key: String) throws {
        if key.isEmpty { throw ServiceError(.badParams, "storage: the key must not be empty") }
    }

    private var folder: URL { file.deletingLastPathComponent() }

    // MARK: Reading

    private enum Contents {
        case values(JSONObject)
        /// Why the file is damaged, and the bytes (to salvage what can be read).
        case damaged(String, [UInt8])
    }

    /// The stored values; a damaged file is an error here (only a write moves it aside).
    private func read() throws -> JSONObject {
        switch try load() {
        case .values(let values):
            return values
        case .damaged(let reason, _):
            throw ServiceError(.failed, "storage: \(file.path) is damaged (\(reason)); the next write moves it aside and keeps the keys that can still be read")
        }
    }

    /// The file's contents: no file is no values; a file that cannot be read is an error (it
    /// must not count as empty, or the next write would replace values it never saw).
    /// A file larger than `FileBytes.maximumSize` cannot be read either: every call would read
    /// and parse it whole (300 MB outlasted a script's time limit at every start), and it stays
    /// as it is.
    private func load() throws -> Contents {
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try FileBytes.contents(of: file.path)
        } catch {
            if !FileSystem.exists(file.path) { return .values(JSONObject()) }
            throw ServiceError(.failed, "storage: \(error)")
        }
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(bytes).plain
        } catch {
            return .damaged("\(error.message) at byte \(error.offset)", bytes)
        }
        // Anything but an object would be dropped by the next write, so it counts as damage too.
        guard let values = parsed.objectValue else { return .damaged("it holds \(parsed.kindDescription), not an object", bytes) }
        return .values(values)
    }

    // MARK: Writing

    private func update(_ change: (inout JSONObject) -> Void) throws {
        // Writing without the lock could lose the values of other processes or other stores
        // of this folder in this process.
        let lockPath = folder.appendingPathComponent("storage.lock").path
        try FileLock.withExclusiveLock(on: lockPath, mode: 0o600, failure: { ServiceError(.failed, "storage: \($0)") }) { () throws in
            var values: JSONObject
            switch try load() {
            case .values(let stored):
                values = stored
            case .damaged(let reason, let bytes):
                let salvaged = StorageSalvage.salvage(bytes)
                try moveAside(reason: reason, kept: salvaged.values.keys.count, lost: salvaged.lost)
                values = salvaged.values
            }
            change(&values)
            do throws(FileError) {
                try AtomicFile.write(Array(JSONValue.object(values).jsonText.utf8), to: file.path, mode: 0o600)
            } catch {
                throw ServiceError(.failed, "storage: \(error)")
            }
        }
    }

    /// Renames the damaged file to `storage.json.damaged-<unix time>` (never over an earlier
    /// one) and logs where it went, with how many keys were kept and lost. Called with the lock held.
    private func moveAside(reason: String, kept: Int, lost: Int) throws {
        let stamp = Int(Date().timeIntervalSince1970)
        var target = file.path + ".damaged-\(stamp)"
        var attempt = 1
        while access(target, F_OK) == 0 {
            attempt += 1
            target = file.path + ".damaged-\(stamp)-\(attempt)"
        }
        guard rename(file.path, target) == 0 else {
            throw ServiceError(.failed, "storage: \(file.path) is damaged (\(reason)) and cannot be moved aside: \(String(cString: strerror(errno)))")
        }
        Self.logger.error("storage: \(file.path) was damaged (\(reason)); moved it to \(target), kept the \(kept) keys that could be read, \(lost) could not")
    }
}
