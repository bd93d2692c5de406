import Crypto
import Foundation
import HybridFiles
import HybridJSON
import Synchronization

/// Successful answers kept by their call's canonical key (SPEC §7.1 `cache`): in memory for the
/// app's run, or on disk (one file per key under the app's `http/` folder, written atomically)
/// across runs. A damaged disk entry is dropped and reported, never fatal.
public final class AnswerCache: Sendable {
    /// A kept answer and when it was stored.
    struct Entry: Sendable {
        var answer: JSONValue
        var stored: Date
    }

    private let memory = Mutex<[String: Entry]>([:])
    /// Where disk entries live; nil keeps everything in memory.
    private let folder: String?
    /// Told of a damaged entry that was dropped.
    private let report: @Sendable (String) -> Void

    /// A cache keeping disk entries in `folder` (nil: memory only).
    public init(folder: String?, report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.folder = folder
        self.report = report
    }

    /// The answer kept for `key` and how old it is, nil when there is none.
    func entry(for key: String, store: APIDefinitions.Cache.Store) -> Entry? {
        if let entry = memory.withLock({ $0[key] }) { return entry }
        guard store == .disk, let path = path(for: key), FileSystem.exists(path) else { return nil }
        guard let bytes = FileBytes.read(path), case .object(let object)? = try? JSONParser.parse(bytes).plain,
              case .string(let storedKey)? = object["key"], storedKey == key,
              let stored = object["stored"]?.numericValue, let answer = object["answer"] else {
            _ = unlink(path)
            report("\(path): a damaged cache entry was dropped")
            return nil
        }
        let entry = Entry(answer: answer, stored: Date(timeIntervalSince1970: stored))
        memory.withLock { $0[key] = entry }
        return entry
    }

    /// Keeps `answer` for `key`, stored `now`.
    func keep(_ answer: JSONValue, for key: String, store: APIDefinitions.Cache.Store, now: Date) {
        memory.withLock { $0[key] = Entry(answer: answer, stored: now) }
        guard store == .disk, let path = path(for: key) else { return }
        let text = JSONValue.object(JSONObject([("key", .string(key)), ("stored", .number(now.timeIntervalSince1970)), ("answer", answer)])).jsonText
        do {
            try AtomicFile.write(Array(text.utf8), to: path)
        } catch {
            report("\(path): cannot keep a cache entry: \(error)")
        }
    }

    /// Forgets every entry, in memory and on disk, whose API `matches` (`api.invalidate`).
    func forget(where matches: (String) -> Bool) {
        let api = { (key: String) in String(key.prefix { $0 != "\u{0}" }) }
        memory.withLock { entries in entries = entries.filter { !matches(api($0.key)) } }
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasSuffix(".json") {
            let path = FileSystem.join(folder, name)
            guard let bytes = FileBytes.read(path), case .string(let key)? = (try? JSONParser.parse(bytes).plain)?["key"] else { continue }
            if matches(api(key)) { _ = unlink(path) }
        }
    }

    private func path(for key: String) -> String? {
        folder.map { FileSystem.join($0, HexDigits.lowercase(SHA256.hash(data: Array(key.utf8))) + ".json") }
    }
}
