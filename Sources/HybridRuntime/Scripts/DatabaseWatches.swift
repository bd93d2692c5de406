import HybridDatabase
import HybridJSON

/// The scripts' `db.watch` calls (SPEC §7.3) in flight: each a `QueryWatch` by the id the script
/// side gave it, its results handed to `deliver` on the app's loop. They go with the scripts
/// that made them (`removeAll()` when the bundle unloads). Used on the app's loop thread only.
final class DatabaseWatches: @unchecked Sendable {
    private var watches: [Int: QueryWatch] = [:]

    /// Starts watching for the script's watch `id`; `deliver(id, rows or error)` is called on
    /// the loop, only while the watch is there.
    func start(id: Int, sql: String, params: JSONValue, in database: AppDatabase, post: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
               deliver: @escaping @Sendable (Int, Result<[JSONValue], SQLError>) -> Void) {
        watches[id]?.cancel()
        // Every result reaches this object only through the loop, where the watch is checked
        // still there; the first too, since this runs inside the script's db.watch call.
        let handOver: @Sendable (Result<[JSONValue], SQLError>) -> Void = { [weak self] result in
            post { [weak self] in
                guard let self, watches[id] != nil else { return }
                if case .failure = result { watches[id] = nil }
                deliver(id, result)
            }
        }
        let watch = QueryWatch(database: database, sql: sql, params: params, onChange: handOver)
        watches[id] = watch
        handOver(watch.first)
    }

    /// Stops the watch `id` (its handle's `remove()`).
    func stop(id: Int) {
        watches.removeValue(forKey: id)?.cancel()
    }

    /// Stops every watch.
    func removeAll() {
        watches.values.forEach { $0.cancel() }
        watches.removeAll()
    }
}
