import Foundation
import GRDB

/// Applies a bundle's migrations (SPEC §7.3) with GRDB's `DatabaseMigrator`: in name order,
/// each in its own transaction, each recorded with its SHA-256 in `hybrid_migrations` inside
/// that transaction. A migration applied before whose file changed since is refused, naming
/// both hashes; a failing one rolls back, its error naming `FILE:LINE` where SQLite tells the
/// statement, and stops the rest.
public enum BundleMigrator {
    /// Why migrating stopped, located in the migration's file.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
        /// Whether another connection kept the database locked (`SQLError.isLocked`): nothing
        /// wrong with the migrations.
        public var isLocked = false

        init(description: String, isLocked: Bool = false) {
            self.description = description
            self.isLocked = isLocked
        }

        init(_ error: any Error, in database: AppDatabase) {
            let error = AppDatabase.sqlError(error)
            self.init(description: "\(database.path): \(error.message)", isLocked: error.isLocked)
        }
    }

    /// The names of `files` that `database` has not had applied yet.
    public static func pending(_ files: [MigrationFiles.File], in database: AppDatabase) throws(Failure) -> [String] {
        do {
            let applied = try database.queue.read { db in try DatabaseMigrator().appliedIdentifiers(db) }
            return files.map(\.name).filter { !applied.contains($0) }
        } catch {
            throw Failure(error, in: database)
        }
    }

    /// Applies what `files` has that `database` has not had yet; answers the names applied now.
    @discardableResult
    public static func migrate(_ database: AppDatabase, with files: [MigrationFiles.File]) throws(Failure) -> [String] {
        do {
            let recorded = try database.queue.write { db -> [String: String] in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS hybrid_migrations (name TEXT PRIMARY KEY, sha256 TEXT NOT NULL, applied TEXT NOT NULL)")
                return try Dictionary(Row.fetchAll(db, sql: "SELECT name, sha256 FROM hybrid_migrations").map { ($0["name"], $0["sha256"]) },
                                      uniquingKeysWith: { first, _ in first })
            }
            for file in files {
                if let hash = recorded[file.name], hash != file.sha256 {
                    throw Failure(description: "\(file.path): this migration was applied with sha256 \(hash) and the file now has sha256 \(file.sha256); "
                                  + "an applied migration cannot change: put the change in a new migration")
                }
            }
            var migrator = DatabaseMigrator()
            for file in files {
                migrator.registerMigration(file.name) { db in
                    do {
                        try db.execute(sql: file.sql)
                    } catch let error as DatabaseError {
                        let failure = SQLError(error)
                        throw Failure(description: "\(file.path)\(line(of: error.sql, in: file.sql)): \(failure.message)", isLocked: failure.isLocked)
                    }
                    try db.execute(sql: "INSERT OR REPLACE INTO hybrid_migrations (name, sha256, applied) VALUES (?, ?, datetime('now'))",
                                   arguments: [file.name, file.sha256])
                }
            }
            let before = try database.queue.read { db in try migrator.appliedIdentifiers(db) }
            try migrator.migrate(database.queue)
            return files.map(\.name).filter { !before.contains($0) }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(error, in: database)
        }
    }

    /// `:LINE` of the statement `statement` in `text`, when it can be found there.
    static func line(of statement: String?, in text: String) -> String {
        guard let statement = statement?.trimmingCharacters(in: .whitespacesAndNewlines), !statement.isEmpty,
              let range = text.range(of: statement) else { return "" }
        return ":\(text[..<range.lowerBound].count { $0 == "\n" } + 1)"
    }
}
