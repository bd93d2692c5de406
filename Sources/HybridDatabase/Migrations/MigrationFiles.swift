import Crypto
import Foundation
import HybridFiles
import HybridJSON

/// A bundle's migrations (SPEC §7.3): the `NNNN-name.sql` files of the folder its manifest's
/// `database.migrations` names, in name order, each with its text and SHA-256. What is wrong
/// with the folder — a name that breaks the pattern, two files of one number, a file that
/// cannot be read — is told, file by file, for `hybrid validate` and a failed start alike.
public struct MigrationFiles: Sendable {
    /// One migration.
    public struct File: Sendable, Equatable {
        /// Its file name, which identifies it once applied (`0002-add-tags.sql`).
        public var name: String
        public var path: String
        public var sql: String
        /// Lowercase hex SHA-256 of its bytes.
        public var sha256: String
    }

    /// The migrations, in name order.
    public var files: [File]
    /// `PATH: what is wrong` for each file that is not a usable migration.
    public var problems: [String]

    /// Whether `name` is `NNNN-name.sql`: four digits, a dash, a name of letters, digits, `-`,
    /// `_` or `.`.
    static func isMigrationName(_ name: String) -> Bool {
        name.wholeMatch(of: /[0-9]{4}-[A-Za-z0-9_.\-]+\.sql/) != nil
    }

    /// The migrations in `folder` (none, with a problem, when it cannot be listed).
    public init(folder: String) {
        files = []
        problems = []
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            problems.append("\(folder): the migrations folder cannot be read")
            return
        }
        var numbers: [Substring: String] = [:]
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = FileSystem.join(folder, name)
            guard Self.isMigrationName(name) else {
                problems.append("\(path): a migration is named NNNN-name.sql (four digits, a dash, a name), like 0001-create-notes.sql")
                continue
            }
            let number = name.prefix(4)
            if let first = numbers[number] {
                problems.append("\(path): the number \(number) is \(first)'s already; each migration has its own")
                continue
            }
            numbers[number] = name
            guard let bytes = try? FileBytes.contents(of: path) else {
                problems.append("\(path): cannot read the migration")
                continue
            }
            guard let sql = String(validating: bytes, as: UTF8.self) else {
                problems.append("\(path): the migration is not UTF-8 text")
                continue
            }
            let digest = HexDigits.lowercase(SHA256.hash(data: bytes))
            files.append(File(name: name, path: path, sql: sql, sha256: digest))
        }
    }
}
