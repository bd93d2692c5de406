import Foundation
import HybridFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `hybrid cache` does (SPEC §6): list what is installed with its boot records, clear an
/// app or one version, and forget a bad mark. Every change is made under the app's lock.
extension BundleCache {
    /// One line of `hybrid cache list`: a version on disk, or a bad mark whose folder is gone.
    public struct Listing: Sendable, Equatable {
        public var app: String
        public var version: SemanticVersion
        /// The boot record's word for it: `healthy`, `bad`, `trying`, or `new` (never started).
        public var state: String
        /// Why it is bad.
        public var reason: String?
        /// Whether its folder is in the cache (a bad version's mark outlives its folder).
        public var isOnDisk: Bool
    }

    /// The apps with a folder in the cache, by name.
    public func apps() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.filter { BundleNames.isAppName($0) && FileSystem.kind(folder(of: $0)) == .folder }.sorted()
    }

    /// `app`'s versions, newest first: those on disk and those only the boot record remembers.
    public func listing(of app: String) -> [Listing] {
        let installed = installedVersions(of: app)
        let record = bootRecord(of: app)
        var lines = installed.map { bundle in
            Listing(app: app, version: bundle.version, state: bundle.state?.rawValue ?? "new",
                    reason: record.versions[bundle.version.description]?.reason, isOnDisk: true)
        }
        for (text, entry) in record.versions {
            guard let version = SemanticVersion(text), !installed.contains(where: { $0.version == version }) else { continue }
            lines.append(Listing(app: app, version: version, state: entry.state.rawValue, reason: entry.reason, isOnDisk: false))
        }
        return lines.sorted { $0.version > $1.version }
    }

    /// Removes everything of `app`: its versions, boot record, and the URLs bound to it.
    public func clear(app: String) throws(BundleError) {
        try requireInCache(app)
        let folder = folder(of: app)
        try withLock(app: app) { () throws(BundleError) in
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name != ".lock" {
                try remove(FileSystem.join(folder, name))
            }
        }
        try remove(folder)
        let origins = self.origins()
        let kept = origins.filter { $0.value != app }
        if kept.count != origins.count { try write(origins: kept) }
    }

    /// Removes `version` of `app`, folder and boot record entry (a bad mark included).
    public func clear(_ version: SemanticVersion, of app: String) throws(BundleError) {
        try requireInCache(app)
        try withLock(app: app) { () throws(BundleError) in
            let path = FileSystem.join(folder(of: app), version.description)
            var record = bootRecord(of: app)
            let recorded = record.versions.removeValue(forKey: version.description) != nil
            guard recorded || FileSystem.exists(path) else {
                throw BundleError(.unreadable, file: "\(app) \(version)", "is not in the cache (\(root))")
            }
            try remove(path)
            unlink(startMarker(of: version, app: app))
            try writeAtomically(record.jsonBytes, to: bootRecordPath(of: app))
        }
    }

    /// Forgets that `version` of `app` is bad: it starts again when it is installed and newest.
    public func forgetBad(_ version: SemanticVersion, of app: String) throws(BundleError) {
        try requireInCache(app)
        try withLock(app: app) { () throws(BundleError) in
            var record = bootRecord(of: app)
            guard record.versions[version.description]?.state == .bad else {
                throw BundleError(.unreadable, file: "\(app) \(version)", "is not marked bad")
            }
            record.versions[version.description] = nil
            try writeAtomically(record.jsonBytes, to: bootRecordPath(of: app))
        }
    }

    /// Throws unless `app` has a folder in the cache (so a lock never creates one).
    public func requireInCache(_ app: String) throws(BundleError) {
        guard BundleNames.isAppName(app), FileSystem.kind(folder(of: app)) == .folder else {
            throw BundleError(.unreadable, file: app, "no such app in the cache (\(root))")
        }
    }

    private func remove(_ path: String) throws(BundleError) {
        guard FileSystem.exists(path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw BundleError(.cannotWrite, file: path, "cannot remove it")
        }
    }
}
