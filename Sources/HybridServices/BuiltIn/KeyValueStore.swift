import Foundation
import HybridJSON

/// One app's persistent values: a JSON object in one file, rewritten atomically (written to
/// a temporary file, flushed, then renamed over the old one), so a crash mid-write leaves the
/// previous values intact. A lock file serializes writers from several processes.
public final class KeyValueStore: Sendable {
    /// The file holding the values.
    public let file: URL

    /// A store kept in `folder/storage.json`.
    public init(folder: URL) {
        file = folder.appendingPathComponent("storage.json")
    }

    /// The store of `app` under `$XDG_DATA_HOME/hybridterm/` (default `~/.local/share/hybridterm/`).
    public static func forApp(_ app: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> KeyValueStore {
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

    private func read() throws -> JSONObject {
        guard let data = FileManager.default.contents(atPath: file.path) else { return JSONObject() }
        do {
            return try JSONParser.parse(Array(data)).plain.objectValue ?? JSONObject()
        } catch {
            throw ServiceError(.failed, "storage: \(file.path) is damaged (\(error.message) at byte \(error.offset))")
        }
    }

    private func update(_ change: (inout JSONObject) -> Void) throws {
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lock = open(folder.appendingPathComponent("storage.lock").path, O_CREAT | O_RDWR, 0o600)
        guard lock >= 0 else { throw ServiceError(.failed, "storage: cannot lock \(folder.path)") }
        defer { close(lock) }
        flock(lock, LOCK_EX)
        defer { flock(lock, LOCK_UN) }
        var values = try read()
        change(&values)
        try write(JSONValue.object(values).jsonText)
    }

    private func write(_ text: String) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".storage.json.\(getpid()).tmp")
        let descriptor = open(temporary.path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw ServiceError(.failed, "storage: cannot write \(temporary.path)") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        let flushed = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, flushed, rename(temporary.path, file.path) == 0 else {
            unlink(temporary.path)
            throw ServiceError(.failed, "storage: writing \(file.path) failed")
        }
    }
}
