import Foundation
import HybridFiles
import HybridJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Installed bundles (SPEC §5): `ROOT/<app>/<version>/` folders, each renamed into place whole
/// from a verified staging folder, beside the app's boot record (`ROOT/<app>/boot.json`).
///
/// Every change to an app's folder happens under an exclusive `flock` on `ROOT/<app>/.lock`, so
/// two processes installing at once (or one installing while another records a boot) see each
/// other's result rather than half of it. Staging folders live in `ROOT/.staging/`, on the same
/// file system as the destination, which keeps the final `rename` atomic.
public struct BundleCache: Sendable {
    /// How many good versions an app keeps on disk: the newest and the one before, to fall back on.
    public static let keptVersions = 2

    /// The cache folder (`$XDG_CACHE_HOME/hybridterm`).
    public let root: String

    /// A cache in `root` (created when first written).
    public init(root: String) {
        self.root = root
    }

    /// The cache SPEC §6 names: `$XDG_CACHE_HOME/hybridterm/`, by default `~/.cache/hybridterm/`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> BundleCache {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileSystem.join(environment["HOME"] ?? NSHomeDirectory(), ".cache")
        return BundleCache(root: FileSystem.join(base, "hybridterm"))
    }

    /// Where staging folders and downloads are made, on the cache's file system.
    public var stagingFolder: String { FileSystem.join(root, ".staging") }

    /// Opens the staging folder for one install, held (shared with other installs) until the
    /// lock is released. When no other install holds it, what interrupted installs left there
    /// (downloads, half-unpacked folders of a killed process) is removed first.
    public func openStaging() throws(BundleError) -> SharedFileLock {
        let folder = stagingFolder
        let lock: SharedFileLock
        do throws(FileError) {
            lock = try SharedFileLock(path: FileSystem.join(root, ".staging.lock")) {
                try? FileManager.default.removeItem(atPath: folder)
            }
            try FileSystem.createFolder(folder)
        } catch {
            throw BundleError(.cannotWrite, file: folder, "cannot open the staging folder (\(error))")
        }
        return lock
    }

    /// Where a development bundle served at `url` is mirrored (not an install: never verified,
    /// never versioned).
    public func developmentFolder(for url: URL) -> String {
        let name = url.absoluteString.map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        return FileSystem.join(FileSystem.join(root, ".development"), name)
    }

    /// The folder of `app`'s versions.
    public func folder(of app: String) -> String { FileSystem.join(root, app) }

    // MARK: Versions

    /// The versions of `app` on disk, newest first, with what the boot record says of each. A
    /// version left `trying` whose start marker is gone was interrupted (quit, Ctrl-C, SIGTERM,
    /// SIGHUP) — not a failure of its own — and reads as never started.
    public func installedVersions(of app: String) -> [InstalledBundle] {
        let record = bootRecord(of: app)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder(of: app))) ?? []
        return names.compactMap { name -> InstalledBundle? in
            guard let version = SemanticVersion(name), version.description == name,
                  FileSystem.kind(FileSystem.join(folder(of: app), name)) == .folder else { return nil }
            var state = record.versions[name]?.state
            if state == .trying && !FileSystem.exists(startMarker(of: version, app: app)) { state = nil }
            return InstalledBundle(app: app, version: version, path: FileSystem.join(folder(of: app), name), state: state)
        }.sorted { $0.version > $1.version }
    }

    /// The file that exists while `version` of `app` is `trying`: found at the next launch, that
    /// start never finished (a crash, `kill -9`). Removed when the start settles, and on an
    /// interrupt or a quit (`InterruptCleanup`, `recordInterrupted`), which are no failure.
    public func startMarker(of version: SemanticVersion, app: String) -> String {
        FileSystem.join(folder(of: app), ".starting-\(version)")
    }

    /// Records that the start of `version` ended without a verdict (the app quit or was
    /// interrupted while it started): the next launch starts it again.
    public func recordInterrupted(_ version: SemanticVersion, of app: String) {
        unlink(startMarker(of: version, app: app))
    }

    /// The versions worth launching, newest first: on disk and not marked bad.
    public func launchableVersions(of app: String) -> [InstalledBundle] {
        installedVersions(of: app).filter { $0.state != .bad }
    }

    /// Installs a verified, staged bundle: checks it is `expectedApp` (when given) and strictly
    /// newer than every version installed or recorded, then renames its staging folder into
    /// place and drops versions beyond the two newest good ones. Offering the installed version
    /// again with the same manifest is not an error: it answers `.alreadyInstalled`. The
    /// staging folder is gone afterwards whatever happens.
    public func install(_ bundle: VerifiedBundle, expectedApp: String? = nil) throws(BundleError) -> InstallOutcome {
        defer { bundle.removeStaging() }
        guard bundle.isStaged else {
            throw BundleError(.unreadable, file: bundle.root, "only a staged (unpacked) archive can be installed")
        }
        let manifest = bundle.manifest
        try Self.require(manifest, isApp: expectedApp)
        return try withLock(app: manifest.app) { () throws(BundleError) -> InstallOutcome in
            try check(manifest, manifestBytes: bundle.manifestBytes)
            if let installed = installedVersions(of: manifest.app).first(where: { $0.version == manifest.version }) {
                return .alreadyInstalled(installed)
            }
            let destination = FileSystem.join(folder(of: manifest.app), manifest.version.description)
            guard rename(bundle.root, destination) == 0 else {
                throw BundleError(.cannotWrite, file: destination, "cannot move the verified bundle into place (\(String(cString: strerror(errno))))")
            }
            prune(app: manifest.app)
            return .installed(InstalledBundle(app: manifest.app, version: manifest.version, path: destination, state: nil))
        }
    }

    /// Throws unless `manifest` is the app `expected` (any app when `nil`).
    static func require(_ manifest: BundleManifest, isApp expected: String?) throws(BundleError) {
        if let expected, manifest.app != expected {
            throw BundleError(.wrongApp, file: BundleFolder.manifestName, "is the app \"\(manifest.app)\", not \"\(expected)\"")
        }
    }

    /// Whether a bundle with `manifest` could be installed now: throws why not (another app's
    /// name is the caller's to check), answers the installed copy when it is already here.
    /// Lets a download be skipped when its manifest alone settles the question.
    public func installedCopy(of manifest: BundleManifest, manifestBytes: [UInt8]) throws(BundleError) -> InstalledBundle? {
        try check(manifest, manifestBytes: manifestBytes)
        return installedVersions(of: manifest.app).first { $0.version == manifest.version }
    }

    private func check(_ manifest: BundleManifest, manifestBytes: [UInt8]) throws(BundleError) {
        let version = manifest.version.description
        let record = bootRecord(of: manifest.app)
        if let entry = record.versions[version], entry.state == .bad {
            throw BundleError(.markedBad, "\(manifest.app) \(version) failed to start before (\(entry.reason ?? "no reason recorded")); it is never launched again")
        }
        let installed = installedVersions(of: manifest.app)
        if let same = installed.first(where: { $0.version == manifest.version }) {
            guard FileBytes.read(FileSystem.join(same.path, BundleFolder.manifestName)) == manifestBytes else {
                throw BundleError(.notNewer, "\(manifest.app) \(version) is already installed with other content; a changed bundle needs a new version")
            }
            // The previous version, kept to fall back on, offered again: a downgrade, refused
            // out loud (the newer one keeps running).
            if let newer = installed.first(where: { $0.version > manifest.version && $0.state != .bad }) {
                throw BundleError(.notNewer, "\(manifest.app) \(version) is older than the installed \(newer.version); only a newer version is installed")
            }
            return
        }
        let known = installed.map(\.version) + record.versions.keys.compactMap(SemanticVersion.init)
        if let newest = known.max(), newest > manifest.version {
            throw BundleError(.notNewer, "\(manifest.app) \(version) is older than the installed \(newest); only a newer version is installed")
        }
    }

    /// Removes bad versions' folders and good ones beyond the newest `keptVersions`, then drops
    /// boot record entries of versions no longer on disk — except a bad version newer than every
    /// good one on disk, whose entry is what refuses it if it is offered again (an older one is
    /// refused as not newer anyway). Under the app's lock.
    private func prune(app: String) {
        var good = 0
        for bundle in installedVersions(of: app) {
            if bundle.state == .bad {
                try? FileManager.default.removeItem(atPath: bundle.path)
            } else {
                good += 1
                if good > Self.keptVersions { try? FileManager.default.removeItem(atPath: bundle.path) }
            }
        }
        let present = installedVersions(of: app)
        let newestGood = present.filter { $0.state != .bad }.map(\.version).max()
        var record = bootRecord(of: app)
        let kept = record.versions.filter { version, entry in
            guard let parsed = SemanticVersion(version) else { return false }
            if present.contains(where: { $0.version == parsed }) { return true }
            return entry.state == .bad && newestGood.map { parsed > $0 } ?? true
        }
        guard kept.count != record.versions.count else { return }
        for version in record.versions.keys where kept[version] == nil {
            if let parsed = SemanticVersion(version) { unlink(startMarker(of: parsed, app: app)) }
        }
        record.versions = kept
        try? writeAtomically(record.jsonBytes, to: bootRecordPath(of: app))
    }

    // MARK: Boot record

    /// What `app`'s boot record says (empty when there is none or it cannot be read).
    public func bootRecord(of app: String) -> BootRecord {
        guard let bytes = FileBytes.read(bootRecordPath(of: app)) else { return BootRecord() }
        return BootRecord(json: bytes)
    }

    /// Records that `version` of `app` is now in `state`, written atomically under the lock;
    /// `trying` also creates the version's start marker, any other state removes it.
    public func record(_ state: BootState, version: SemanticVersion, of app: String, reason: String? = nil) throws(BundleError) {
        try withLock(app: app) { () throws(BundleError) in
            let marker = startMarker(of: version, app: app)
            if state == .trying {
                try writeAtomically(Array("\(getpid())\n".utf8), to: marker)
            } else {
                unlink(marker)
            }
            var record = bootRecord(of: app)
            record.versions[version.description] = BootRecord.Entry(state: state, reason: reason)
            try writeAtomically(record.jsonBytes, to: bootRecordPath(of: app))
            prune(app: app)
        }
    }

    func bootRecordPath(of app: String) -> String { FileSystem.join(folder(of: app), "boot.json") }

    // MARK: Origins

    /// Remembers which app a URL served, so an offline start knows what to run.
    public func remember(origin: String, app: String) {
        var origins = self.origins()
        guard origins[origin] != app else { return }
        origins[origin] = app
        try? write(origins: origins)
    }

    func write(origins: [String: String]) throws(BundleError) {
        let object = JSONObject(origins.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
        try writeAtomically(Array(JSONValue.object(object).jsonText.utf8), to: originsPath)
    }

    /// The app a URL installed first, if it is known (a URL stays bound to it).
    public func app(forOrigin origin: String) -> String? { origins()[origin] }

    var originsPath: String { FileSystem.join(root, "origins.json") }

    func origins() -> [String: String] {
        guard let bytes = FileBytes.read(originsPath), case .object(let object)? = try? JSONParser.parse(bytes).plain else { return [:] }
        var origins: [String: String] = [:]
        for (key, value) in object { if let app = value.stringValue { origins[key] = app } }
        return origins
    }

    // MARK: Files

    /// Runs `body` holding `ROOT/<app>/.lock` exclusively (creating the app's folder).
    func withLock<T>(app: String, _ body: () throws(BundleError) -> T) throws(BundleError) -> T {
        guard BundleNames.isAppName(app) else {
            throw BundleError(.invalidManifest, file: BundleFolder.manifestName, "the app name \"\(app)\" cannot name a cache folder")
        }
        let folder = folder(of: app)
        return try FileLock.withExclusiveLock(on: FileSystem.join(folder, ".lock"), failure: { error in
            BundleError(.cannotWrite, file: folder, "cannot lock the app's cache folder (\(error))")
        }, body)
    }

    /// Replaces the file at `path` whole (see `AtomicFile`).
    func writeAtomically(_ bytes: [UInt8], to path: String) throws(BundleError) {
        do throws(FileError) {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw BundleError(.cannotWrite, file: path, "cannot write (\(error.reason))")
        }
    }
}

/// A version of an app in the cache.
public struct InstalledBundle: Sendable, Equatable {
    /// The app's name.
    public var app: String
    /// Its version.
    public var version: SemanticVersion
    /// The version's folder.
    public var path: String
    /// What its last boot showed; `nil` when it never ran.
    public var state: BootState?
}

/// What `BundleCache.install` did.
public enum InstallOutcome: Sendable, Equatable {
    /// The version was new and is now in place.
    case installed(InstalledBundle)
    /// The same version with the same manifest was already there.
    case alreadyInstalled(InstalledBundle)

    /// The installed bundle either way.
    public var bundle: InstalledBundle {
        switch self {
        case .installed(let bundle), .alreadyInstalled(let bundle): return bundle
        }
    }
}
