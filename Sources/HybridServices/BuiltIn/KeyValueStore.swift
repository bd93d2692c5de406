import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HybridJSON
import Logging

/// One app's persistent values: a JSON object in one file, rewritten atomically (written to
/// a temporary file, flushed, renamed over the old one, and the folder flushed so the rename
/// itself survives a crash), so a crash mid-write leaves the previous values intact. A lock
/// file serializes writers, whether in several processes or several stores in one process.
///
/// A damaged `storage.json` (not a JSON object) makes reads fail with a message naming it; the
/// next write moves it aside to `storage.json.damaged-<unix time>` (nothing is deleted), logs
/// that once, and starts from an empty object, so one bad file does not block every later write.
public final class KeyValueStore: Sendable {
    /// The file holding the values.
    public let file: URL

    private static let logger = Logger(label: "hybridterm.storage")

    /// A store kept in `folder/storage.json`.
    public init(folder: URL) {
        file = folder.appendingPathComponent("storage.json")
    }

    /// The store of `app` under `$XDG_DATA_HOME/hybridterm/` (default `~/.local/share/hybridterm/`).
    ///
    /// - Throws: `ServiceError` (`E_BAD_PARAMS`) when `app` is not a plain folder name: empty,
    ///   starting with `.` (so `.` and `..`), or holding `/`, `\` or NUL. Such a name could put
    ///   the store outside `hybridterm/` (`../other-app`) or in a hidden folder.
    public static func forApp(_ app: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> KeyValueStore {
        guard !app.isEmpty, !app.hasPrefix("."), !app.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" }) else {
            throw ServiceError(.badParams, "storage: the app name \"\(app)\" is not a plain folder name (no \"/\", no leading \".\", not empty)")
        }
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        return KeyValueStore(folder: base.appendingPathComponent("hybridterm").appendingPathComponent(app))
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
    public func set(_ value: JSONValue, for key: String) throws {
        try Self.check(key)
        try update { $0[key] = value }
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
        case damaged(String)
    }

    /// The stored values; a damaged file is an error here (only a write moves it aside).
    private func read() throws -> JSONObject {
        switch try load() {
        case .values(let values):
            return values
        case .damaged(let reason):
            throw ServiceError(.failed, "storage: \(file.path) is damaged (\(reason)); the next write moves it aside and starts afresh")
        }
    }

    /// The file's contents: no file is no values; a file that cannot be read is an error (it
    /// must not count as empty, or the next write would replace values it never saw).
    private func load() throws -> Contents {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return .values(JSONObject()) }
            throw ServiceError(.failed, "storage: cannot read \(file.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = Foundation.read(descriptor, &chunk, chunk.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw ServiceError(.failed, "storage: cannot read \(file.path): \(String(cString: strerror(errno)))")
            }
            bytes += chunk.prefix(count)
        }
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(bytes).plain
        } catch {
            return .damaged("\(error.message) at byte \(error.offset)")
        }
        // Anything but an object would be dropped by the next write, so it counts as damage too.
        guard let values = parsed.objectValue else { return .damaged("it holds \(parsed.kindDescription), not an object") }
        return .values(values)
    }

    // MARK: Writing

    private func update(_ change: (inout JSONObject) -> Void) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lockPath = folder.appendingPathComponent("storage.lock").path
        let lock = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw ServiceError(.failed, "storage: cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        // Each open() is its own lock owner, so this excludes other processes and other
        // stores in this process alike. Writing without the lock could lose their values.
        while flock(lock, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw ServiceError(.failed, "storage: cannot lock \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { flock(lock, LOCK_UN) }
        var values: JSONObject
        switch try load() {
        case .values(let stored):
            values = stored
        case .damaged(let reason):
            try moveAside(reason: reason)
            values = JSONObject()
        }
        change(&values)
        try write(JSONValue.object(values).jsonText)
    }

    /// Renames the damaged file to `storage.json.damaged-<unix time>` (never over an earlier
    /// one) and logs where it went. Called with the lock held.
    private func moveAside(reason: String) throws {
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
        Self.logger.error("storage: \(file.path) was damaged (\(reason)); moved it to \(target) and started afresh")
    }

    private func write(_ text: String) throws {
        let temporary = folder.appendingPathComponent(".storage.json.\(getpid()).tmp")
        let descriptor = open(temporary.path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ServiceError(.failed, "storage: cannot write \(temporary.path): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            offset += count
        }
        let flushed = fsync(descriptor) == 0
        close(descriptor)
        guard offset == bytes.count, flushed, rename(temporary.path, file.path) == 0 else {
            unlink(temporary.path)
            throw ServiceError(.failed, "storage: writing \(file.path) failed")
        }
        try syncFolder()
    }

    /// Flushes the folder, so the rename (a change to the folder, not the file) is on disk too.
    private func syncFolder() throws {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ServiceError(.failed, "storage: cannot open \(folder.path) to flush it") }
        defer { close(descriptor) }
        // EINVAL: the file system cannot flush folders; there is nothing more to do there.
        if fsync(descriptor) != 0 && errno != EINVAL {
            throw ServiceError(.failed, "storage: flushing \(folder.path) failed: \(String(cString: strerror(errno)))")
        }
    }
}
