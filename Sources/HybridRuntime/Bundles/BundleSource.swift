import Foundation

/// Where a bundle comes from (SPEC §4 `app.load(bundle:)`).
public enum BundleSource: Sendable, Equatable {
    /// A bundle folder: run in place; checked against the trusted keys when signed, run with a
    /// warning as a development bundle when not.
    case directory(String)
    /// A signed `.hbundle` archive on disk, installed into the cache.
    case archive(String)
    /// A signed `.hbundle` archive at an `http(s)` URL, downloaded and installed into the cache.
    case url(URL)
    /// A bundle folder served by `hybrid serve` on this machine (`http://127.0.0.1:PORT/NAME/`),
    /// run unsigned and reloaded whenever the served folder changes.
    case development(URL)

    /// Reads a command-line target: a URL (of an archive when it ends in `.hbundle`, else of a
    /// served folder for development), a folder, or (any other file) an archive.
    public init(target: String) {
        if let url = URL(string: target), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            self = url.pathExtension == "hbundle" ? .url(url) : .development(url)
        } else {
            var isFolder: ObjCBool = false
            self = FileManager.default.fileExists(atPath: target, isDirectory: &isFolder) && isFolder.boolValue ? .directory(target) : .archive(target)
        }
    }
}
