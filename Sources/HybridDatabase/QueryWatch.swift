import Foundation
import GRDB
import HybridJSON
import Synchronization

/// The rows of a query, kept watched (SPEC §7.3 `db.watch`, §7.4 `sql` blocks): `first` is the
/// first result, and `onChange` gets the new one after each committed transaction that changed a table the
/// query reads (GRDB's `DatabaseRegionObservation`) — once per transaction however many rows it
/// changed, never for one rolled back, never when the rows came out the same. The query runs
/// again right after the commit, on the writer's thread, so a writer that then hands control
/// back (a script's statement) has the news on its way already. A query SQLite refuses is told
/// once, and the watch ends.
public final class QueryWatch: Sendable {
    private let cancellable: Mutex<AnyDatabaseCancellable?>
    /// The rows when the watch began, or why the query could not run (then nothing follows).
    public let first: Result<[JSONValue], SQLError>

    /// Watches `sql` with `params` in `database`; `onChange` is called on the writing thread.
    public init(database: AppDatabase, sql: String, params: JSONValue,
                onChange: @escaping @Sendable (Result<[JSONValue], SQLError>) -> Void) {
        cancellable = Mutex(nil)
        let last = Mutex<[JSONValue]?>(nil)
        let fail = { @Sendable (error: any Error) in onChange(.failure(AppDatabase.sqlError(error))) }
        let arguments: StatementArguments
        do {
            arguments = try SQLValues.arguments(params)
            let rows = try database.query(sql, params: params)
            last.withLock { $0 = rows }
            first = .success(rows)
        } catch {
            first = .failure(AppDatabase.sqlError(error))
            return
        }
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
    }

    /// Stops watching.
    public func cancel() {
        cancellable.withLock { $0?.cancel() }
    }

    deinit {
        cancellable.withLock { $0?.cancel() }
    }
}
