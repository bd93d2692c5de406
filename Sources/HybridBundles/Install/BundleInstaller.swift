import Foundation
import HybridFiles
import HybridJSON

/// Brings a signed bundle — a `.hbundle` archive on disk or at a URL — into a `BundleCache`:
/// verified against trusted keys, unpacked into staging, checked to be the expected app and
/// strictly newer, then renamed into place (SPEC §5).
///
/// For a URL `…/NAME.hbundle`, the signed manifest served beside it (`…/NAME/manifest.json` and
/// `manifest.sig`, as `hybrid serve` does) is read first: it settles most refusals (untrusted
/// key, not newer, marked bad) without downloading the archive, and its `files` cap the
/// archive's size. A server that serves only the archive is read with
/// `defaultArchiveLimit` as the cap instead.
public struct BundleInstaller: Sendable {
    /// The cap on an archive whose manifest was not served beside it.
    public static let defaultArchiveLimit = 64 << 20

    /// Where bundles are installed.
    public var cache: BundleCache
    /// The keys whose signatures are accepted.
    public var verifier: BundleVerifier
    /// The app a bundle must be, when the host knows (`nil`: any app).
    public var expectedApp: String?
    /// Seconds an install from a URL may spend on the network in all (manifest, signature and
    /// archive): a deadline, not an idle timer, so a server that drips bytes cannot hold
    /// start-up past it (SPEC §5: start-up never blocks on the network).
    public var deadline: Double = 10
    /// Told of a download's progress, `(received, expected)`.
    public var progress: (@Sendable (Int, Int?) -> Void)?

    /// An installer into `cache` trusting `trustedKeys`.
    public init(cache: BundleCache, trustedKeys: [BundlePublicKey], expectedApp: String? = nil) {
        self.cache = cache
        self.verifier = BundleVerifier(trustedKeys: trustedKeys)
        self.expectedApp = expectedApp
    }

    /// Installs the archive at `path`.
    public func install(archive path: String) throws(BundleError) -> InstallOutcome {
        let staging = try cache.openStaging()
        defer { staging.release() }
        let verified = try verifier.verifyArchive(path, stagingParent: cache.stagingFolder)
        return try cache.install(verified, expectedApp: expectedApp)
    }

    /// Downloads and installs the archive at `url`, remembering which app it served: a URL
    /// stays bound to the app it first installed, and a bundle of another app served there
    /// later is refused (naming both), even when a trusted key signed it.
    public func install(from url: URL) async throws(BundleError) -> InstallOutcome {
        let end = Date(timeIntervalSinceNow: deadline)
        let lock = try cache.openStaging()
        defer { lock.release() }
        let staging = cache.stagingFolder
        var limit = Self.defaultArchiveLimit
        var servedManifest: [UInt8]?
        if let (manifestBytes, signatureBytes) = try await fetchManifest(besides: url, in: staging, until: end) {
            let (manifest, _) = try verifier.verifyManifest(manifestBytes, signature: signatureBytes)
            try requireBoundApp(manifest, at: url)
            if let installed = try cache.installedCopy(of: manifest, manifestBytes: manifestBytes) {
                cache.remember(origin: url.absoluteString, app: manifest.app)
                return .alreadyInstalled(installed)
            }
            // Stored entries are never bigger than their files; the rest is ZIP headers.
            let files = manifest.files ?? [:]
            let sizes = files.values.map(\.size) + [manifestBytes.count, signatureBytes.count, 1024 * (files.count + 2), 64 << 10]
            limit = sizes.reduce(0) { total, size in
                let (sum, overflow) = total.addingReportingOverflow(size)
                return overflow ? .max : sum
            }
            servedManifest = manifestBytes
        }
        let archive = FileSystem.join(staging, "download-\(UUID().uuidString).hbundle")
        defer { try? FileManager.default.removeItem(atPath: archive) }
        let response = try await Download.fetch(url, to: archive, limit: limit, deadline: deadline, end: end, progress: progress)
        guard response.status == 200 else {
            throw BundleError(.download, file: url.absoluteString, "answered HTTP \(response.status)")
        }
        let verified = try verifier.verifyArchive(archive, stagingParent: staging)
        if let servedManifest, servedManifest != verified.manifestBytes {
            verified.removeStaging()
            throw BundleError(.invalidManifest, file: BundleFolder.manifestName, "differs between the archive and the manifest served beside it")
        }
        do throws(BundleError) {
            try requireBoundApp(verified.manifest, at: url)
        } catch {
            verified.removeStaging()
            throw error
        }
        let outcome = try cache.install(verified, expectedApp: expectedApp)
        cache.remember(origin: url.absoluteString, app: verified.manifest.app)
        return outcome
    }

    /// `manifest.json` and `manifest.sig` served beside an `….hbundle` URL, or `nil` when the
    /// server has none (any answer but 200 for either).
    private func fetchManifest(besides url: URL, in staging: String, until end: Date) async throws(BundleError) -> ([UInt8], [UInt8])? {
        guard url.pathExtension == "hbundle" else { return nil }
        let base = url.deletingPathExtension()
        var bytes: [[UInt8]] = []
        for (name, limit) in [(BundleFolder.manifestName, BundleVerifier.manifestSizeLimit), (BundleFolder.signatureName, BundleVerifier.signatureSizeLimit)] {
            let file = FileSystem.join(staging, "\(name)-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(atPath: file) }
            let target = base.appendingPathComponent(name)
            let response = try await Download.fetch(target, to: file, limit: limit, deadline: deadline, end: end)
            guard response.status == 200, let read = FileBytes.read(file) else { return nil }
            bytes.append(read)
        }
        return (bytes[0], bytes[1])
    }

    /// Throws unless `manifest` is the app expected at `url`: the host's `expectedApp`, else
    /// the app the URL installed first (remembered once an install from it succeeds).
    private func requireBoundApp(_ manifest: BundleManifest, at url: URL) throws(BundleError) {
        try BundleCache.require(manifest, isApp: expectedApp)
        let origin = url.absoluteString
        if let bound = cache.app(forOrigin: origin), bound != manifest.app {
            throw BundleError(.wrongApp, file: BundleFolder.manifestName,
                              "is the app \"\(manifest.app)\", but \(origin) installed the app \"\(bound)\" first; a URL stays bound to its app (`hybrid cache clear \(bound)` forgets it)")
        }
    }
}
