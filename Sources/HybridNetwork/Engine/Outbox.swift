import Foundation
import HybridFiles
import HybridJSON
import Synchronization

/// The app's outbox (SPEC §7.1 `offline: "queue"`): calls made while their host could not be
/// reached, kept on disk in the order they were made until they are sent. One file per call
/// (`SEQUENCE-REQUESTID.json`, written atomically), so a crash loses at most the call being
/// written and never damages another; a damaged file is dropped and reported, never fatal.
///
/// The outbox only keeps; `APIClient` decides when to send (`APIClient.flush`).
public final class Outbox: Sendable {
    /// One queued call.
    public struct Entry: Sendable, Equatable {
        /// Its place in the outbox: entries are sent in this order.
        var sequence: Int
        /// The API called.
        public var api: String
        /// The params it was called with (checked when it was queued, checked again when sent).
        public var params: JSONValue
        /// Its `X-Request-ID`, also its `Idempotency-Key` on every try.
        public var requestID: String
        /// When it was queued.
        public var queued: Date
        /// How many times sending it failed since.
        public var tries: Int

        /// The entry as scripts see it in `api.outbox()`.
        public var json: JSONValue {
            .object(JSONObject([
                ("api", .string(api)), ("params", params), ("requestId", .string(requestID)),
                ("queuedAt", .integer(Int(queued.timeIntervalSince1970 * 1000))), ("tries", .integer(tries)),
            ]))
        }

        var fileName: String { String(format: "%016d-", sequence) + requestID + ".json" }
    }

    /// The entries, oldest first (read from disk when the outbox is made).
    private let entries: Mutex<[Entry]>
    /// Where the files live; nil keeps the outbox in memory (a host without a data folder).
    private let folder: String?
    /// Told of a damaged file that was dropped, or of a file that could not be written.
    private let report: @Sendable (String) -> Void

    /// The outbox kept in `folder` (nil: in memory only), with what a previous run left there.
    public init(folder: String?, report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.folder = folder
        self.report = report
        entries = Mutex(folder.map { Self.read($0, report: report) } ?? [])
    }

    /// Every queued call, oldest first.
    public var all: [Entry] { entries.withLock { $0 } }

    /// Whether a call of one of `apis` waits.
    func holds(anyOf apis: Set<String>) -> Bool {
        entries.withLock { $0.contains { apis.contains($0.api) } }
    }

    /// Queues a call after every other one.
    /// - Throws: `CallError` (`E_FAILED`) when it cannot be written: the call is not queued.
    func add(api: String, params: JSONValue, requestID: String, at date: Date) throws(CallError) -> Entry {
        let result: Result<Entry, CallError> = entries.withLock { entries in
            let entry = Entry(sequence: (entries.last?.sequence ?? 0) + 1, api: api, params: params, requestID: requestID, queued: date, tries: 0)
            do throws(FileError) {
                try write(entry)
            } catch {
                return .failure(CallError(code: "E_FAILED", message: "\(api): the host cannot be reached and the call cannot be queued: \(error)"))
            }
            entries.append(entry)
            return .success(entry)
        }
        return try result.get()
    }

    /// Forgets a call (sent, or refused for good).
    func remove(_ entry: Entry) {
        entries.withLock { $0.removeAll { $0.sequence == entry.sequence } }
        if let folder { _ = unlink(FileSystem.join(folder, entry.fileName)) }
    }

    /// Counts a failed try of `entry`.
    func countTry(of entry: Entry) {
        entries.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.sequence == entry.sequence }) else { return }
            entries[index].tries += 1
            do throws(FileError) {
                try write(entries[index])
            } catch {
                report("outbox: cannot record a try of \(entry.api) (request \(entry.requestID)): \(error)")
            }
        }
    }

    private func write(_ entry: Entry) throws(FileError) {
        guard let folder else { return }
        let record = JSONValue.object(JSONObject([
            ("api", .string(entry.api)), ("params", entry.params), ("requestId", .string(entry.requestID)),
            ("queued", .number(entry.queued.timeIntervalSince1970)), ("tries", .integer(entry.tries)),
        ]))
        try AtomicFile.write(Array(record.jsonText.utf8), to: FileSystem.join(folder, entry.fileName), mode: 0o600)
    }

    /// The entries `folder` holds, in order; damaged files dropped and reported.
    private static func read(_ folder: String, report: (String) -> Void) -> [Entry] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var entries: [Entry] = []
        for name in names.sorted() where !name.hasPrefix(".") && name.hasSuffix(".json") {
            let path = FileSystem.join(folder, name)
            if let entry = entry(named: name, bytes: FileBytes.read(path)) {
                entries.append(entry)
            } else {
                _ = unlink(path)
                report("\(path): a damaged outbox entry was dropped")
            }
        }
        return entries
    }

    /// The entry a file holds, nil when its name or content is damaged.
    private static func entry(named name: String, bytes: [UInt8]?) -> Entry? {
        let parts = name.dropLast(".json".count).split(separator: "-", maxSplits: 1)
        guard parts.count == 2, let sequence = Int(parts[0]), let bytes,
              case .object(let object)? = try? JSONParser.parse(bytes).plain,
              case .string(let api)? = object["api"], let params = object["params"],
              case .string(let requestID)? = object["requestId"], requestID == parts[1],
              case .integer(let tries)? = object["tries"], let queued = object["queued"]?.numericValue else { return nil }
        return Entry(sequence: sequence, api: api, params: params, requestID: requestID, queued: Date(timeIntervalSince1970: queued), tries: tries)
    }
}
