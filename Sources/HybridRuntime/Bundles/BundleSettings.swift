import HybridBundles

/// How the app gets bundles (SPEC §5): whose signatures it trusts, where it installs them, and
/// how downloads behave.
struct BundleSettings {
    /// The keys whose signatures are accepted for archives, URLs and signed folders.
    var trustedKeys: [BundlePublicKey] = []
    /// Where archives and downloads are installed.
    var cache = BundleCache.standard()
    /// Seconds a download may take in all before it is given up (a deadline, not an idle timer).
    var downloadTimeout = 10.0
    /// Told of a download's progress, `(received, expected)` bytes.
    var downloadProgress: (@Sendable (Int, Int?) -> Void)?
    /// The host's secrets by name, which signed API services use (SPEC §7.1); never visible
    /// to scripts.
    var secrets: [String: String] = [:]
    /// Told a line per API call, when calls are traced (`--trace net`).
    var traceNetwork: (@Sendable (String) -> Void)?
    /// Told a line per database statement of the scripts, when they are traced (`--trace db`).
    var traceDatabase: (@Sendable (String) -> Void)?

    /// An installer with these settings, refusing bundles of an app other than `expectedApp`.
    func installer(expectedApp: String?) -> BundleInstaller {
        var installer = BundleInstaller(cache: cache, trustedKeys: trustedKeys, expectedApp: expectedApp)
        installer.deadline = downloadTimeout
        installer.progress = downloadProgress
        return installer
    }

    /// Checks a folder's signature against the trusted keys (every load: the cache is only a
    /// folder on disk).
    func verify(folder path: String) throws {
        _ = try BundleVerifier(trustedKeys: trustedKeys).verifyFolder(path)
    }
}
