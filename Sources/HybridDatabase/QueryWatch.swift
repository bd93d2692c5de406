import Foundation
import GRDB
import HybridJSON
import Synchronization

/// The rows of a query, kept watched (SPEC §7.3 `db.watch`, §7.4 `sql` blocks): `onChange` gets
/// the first result, then the new one after each committed transaction that changed a table the
/// query reads (GRDB's `DatabaseRegionObservation`) — once per transaction however many rows it
/// changed, never for one rolled back, never when the rows came out the same. The query runs
/// again right after the commit, on the writer's thread, so a writer that then hands control
/// back (a script's statement) has the news on its way already. A query SQLite refuses is told
/// once, and the watch ends.
public final class QueryWatch: Sendable {
    private let cancellable: Mutex<AnyDatabaseCancellable?>

    /// Watches `sql` with `params` in `database`; `onChange` is called on the writing thread
    /// (the first time, on the caller's).
    public init(database: AppDatabase, sql: String, params: JSONValue,
                onChange: @escaping @Sendable (Result<[JSONValue], SQLError>) -> Void) {
        cancellable = Mutex(nil)
        let last = Mutex<[JSONValue]?>(nil)
        let fail = { @Sendable (error: any Error) in onChange(.failure(AppDatabase.sqlError(error))) }
        do {
            let arguments = try SQLValues.arguments(params)
            let first = try database.query(sql, params: params)
            last.withLock { $0 = first }
            onChange(.success(first))
            let observation = DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: sql, arguments: arguments))
            let started = observation.start(in: database.queue, onError: fail) { db in
                do {
                    let rows = try AppDatabase.query(sql, params: params, in: db)
                    let changed = last.withLock { previous in
                        defer { previous = rows }
                        return previous != rows
                    }
                    if changed { onChange(.success(rows)) }
                } catch {
                    fail(error)
                }
            }
            cancellable.withLock { $0 = started }
        } catch {
            fail(error)
        }
    }

    /// Stops watching.
    public func cancel() {
        cancellable.withLock { $0?.cancel() }
    }

    deinit {
        cancellable.withLock { $0?.cancel() }
    }
}
