import Foundation
import HybridFiles
import HybridJSON

/// A bundle folder served for development (`hybrid serve DIR`, `http://HOST:PORT/NAME/`) copied
/// into a local folder and kept in step: `sync` fetches the listing (`/NAME/.files`) and every
/// file whose size or SHA-256 differs, and removes what is gone; `nextChange` long-polls
/// `/NAME/.changes` until the served folder changes.
///
/// Development bundles are unsigned, so only a server on this machine (a loopback address) is
/// accepted: anything from elsewhere must come as a signed archive.
public struct DevelopmentMirror: Sendable {
    /// The largest file copied.
    public static let fileSizeLimit = 16 << 20

    /// The served folder's URL, ending in `/`.
    public let url: URL
    /// The local copy.
    public let folder: String
    /// Seconds of network silence before a request is given up.
    public var timeout: Double = 10

    /// A mirror of `url` (which must be on a loopback host) into `folder`.
    public init(url: URL, folder: String) throws(BundleError) {
        guard let host = url.host?.lowercased(), ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) else {
            throw BundleError(.download, file: url.absoluteString, "development bundles are served only from this machine (127.0.0.1, localhost); from elsewhere, run a signed .hbundle")
        }
        self.url = url.absoluteString.hasSuffix("/") ? url : URL(string: url.absoluteString + "/")!
        self.folder = folder
    }

    /// Brings the local copy in step with the server; returns the served generation.
    @discardableResult
    public func sync() async throws(BundleError) -> Int {
        let (generation, files) = try await listing()
        try makeFolder(folder)
        // What the server no longer has goes first: a file it turned into a folder (or the
        // reverse) would otherwise stand in the way of the new one for good.
        for path in (try? BundleContents.files(in: folder)) ?? [] where files[path] == nil {
            try? FileManager.default.removeItem(atPath: FileSystem.join(folder, path))
        }
        for (path, entry) in files.sorted(by: { $0.key < $1.key }) {
            let local = FileSystem.join(folder, path)
            if let digest = try? BundleContents.digest(of: local, file: path), digest == entry { continue }
            try makeFolder(FileSystem.parentFolder(of: local))
            let temporary = local + ".download"
            let response = try await Download.fetch(URL(string: path, relativeTo: url)!.absoluteURL, to: temporary, limit: Self.fileSizeLimit, deadline: timeout)
            guard response.status == 200 else {
                throw BundleError(.download, file: path, "answered HTTP \(response.status)")
            }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: local, isDirectory: &isFolder), isFolder.boolValue {
                // A folder the server turned into this file: its own files went above.
                try? FileManager.default.removeItem(atPath: local)
            }
            guard rename(temporary, local) == 0 else { throw BundleError(.cannotWrite, file: local, "cannot put the file in place") }
        }
        return generation
    }

    /// Waits (one long poll, up to the server's limit) for a generation after `generation`;
    /// returns the served generation, which is `generation` itself when nothing changed.
    public func nextChange(after generation: Int) async throws(BundleError) -> Int {
        let bytes = try await fetchJSON(".changes?since=\(generation)", timeout: timeout + 30)
        guard case .integer(let value)? = bytes["generation"] else {
            throw BundleError(.download, file: url.absoluteString + ".changes", "answered without a \"generation\"")
        }
        return value
    }

    /// The served generation and files (paths checked against the bundle path rules).
    private func listing() async throws(BundleError) -> (Int, [String: BundleManifest.FileEntry]) {
        let json = try await fetchJSON(".files", timeout: timeout)
        guard case .integer(let generation)? = json["generation"], case .object(let listed)? = json["files"] else {
            throw BundleError(.download, file: url.absoluteString + ".files", "is not {\"generation\", \"files\"}")
        }
        var files: [String: BundleManifest.FileEntry] = [:]
        for (path, value) in listed {
            if let problem = BundlePath.problem(with: path) { throw BundleError(.unsafePath, file: path, problem) }
            guard let sha256 = value.objectValue?["sha256"]?.stringValue, case .integer(let size)? = value.objectValue?["size"] else {
                throw BundleError(.download, file: path, "is listed without a size and sha256")
            }
            files[path] = BundleManifest.FileEntry(sha256: sha256, size: size)
        }
        // A development bundle runs unsigned: a signature would stop matching at the first edit.
        files[BundleFolder.signatureName] = nil
        return (generation, files)
    }

    private func fetchJSON(_ relative: String, timeout: Double) async throws(BundleError) -> JSONObject {
        let file = FileSystem.join(NSTemporaryDirectory(), "hybrid-dev-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let target = URL(string: relative, relativeTo: url)!.absoluteURL
        let response = try await Download.fetch(target, to: file, limit: 4 << 20, deadline: timeout)
        guard response.status == 200 else {
            throw BundleError(.download, file: target.absoluteString, "answered HTTP \(response.status) (is `hybrid serve` serving this folder?)")
        }
        guard let bytes = FileBytes.read(file), case .object(let object)? = try? JSONParser.parse(bytes).plain else {
            throw BundleError(.download, file: target.absoluteString, "did not answer JSON")
        }
        return object
    }

    private func makeFolder(_ path: String) throws(BundleError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw BundleError(.cannotWrite, file: path, "cannot create the folder")
        }
    }
}
