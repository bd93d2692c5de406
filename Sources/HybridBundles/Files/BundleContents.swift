import Crypto
import Foundation
import HybridFiles
import HybridJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a bundle folder as signing sees them: every regular file under the root except
/// the root's `manifest.json` and `manifest.sig` and what `BundleIgnore` leaves out (dotfiles,
/// private keys, `.hbundleignore`), by bundle path, in byte order. Symbolic links, devices and
/// paths breaking `BundlePath` rules are refused, never followed.
enum BundleContents {
    /// A folder's files and what was left out of them.
    struct Listing {
        /// The bundle paths of the files, in byte order.
        var files: [String] = []
        /// What was left out, in the order found: the bundle path (a folder's ends with `/`) and why.
        var leftOut: [(path: String, reason: String)] = []
    }

    /// The bundle paths of the files under `root` (an existing folder).
    static func files(in root: String) throws(BundleError) -> [String] {
        try listing(in: root).files
    }

    /// The files under `root` (an existing folder), and what was left out.
    static func listing(in root: String) throws(BundleError) -> Listing {
        var listing = Listing()
        try walk(root: root, relative: "", ignore: BundleIgnore(root: root), into: &listing)
        listing.files.sort(by: byteOrder)
        return listing
    }

    /// Bundle paths sort by their UTF-8 bytes, so every tool lists them alike.
    static func byteOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    private static func walk(root: String, relative: String, ignore: BundleIgnore, into listing: inout Listing) throws(BundleError) {
        let folder = relative.isEmpty ? root : FileSystem.join(root, relative)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw BundleError(.unreadable, file: relative.isEmpty ? nil : relative, "cannot list the folder")
        }
        for name in names.sorted(by: byteOrder) {
            let path = relative.isEmpty ? name : relative + "/" + name
            if relative.isEmpty && (name == BundleFolder.manifestName || name == BundleFolder.signatureName) { continue }
            var info = stat()
            guard lstat(FileSystem.join(root, path), &info) == 0 else {
                throw BundleError(.unreadable, file: path, "cannot read the file")
            }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            if let reason = ignore.reason(forLeavingOut: path, isFolder: isFolder, contents: { leadingBytes(of: FileSystem.join(root, path)) }) {
                listing.leftOut.append((isFolder ? path + "/" : path, reason))
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                throw BundleError(.symbolicLink, file: path, "is a symbolic link; a signed bundle holds regular files only")
            case S_IFDIR:
                try walk(root: root, relative: path, ignore: ignore, into: &listing)
            case S_IFREG:
                if let problem = BundlePath.problem(with: path) {
                    throw BundleError(.unsafePath, file: path, problem)
                }
                listing.files.append(path)
            default:
                throw BundleError(.notRegularFile, file: path, "is not a regular file")
            }
        }
    }

    /// The first bytes of a regular file (enough to tell a private key), nil when unreadable;
    /// never follows a link.
    private static func leadingBytes(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer.prefix(count)) : nil
    }

    /// The SHA-256 (lowercase hex) and size of the file at `path`, read without following a
    /// final symbolic link; `file` names it in errors.
    static func digest(of path: String, file: String) throws(BundleError) -> BundleManifest.FileEntry {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw BundleError(.unreadable, file: file, "cannot read the file") }
        defer { close(descriptor) }
        var hasher = SHA256()
        var size = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw BundleError(.unreadable, file: file, "cannot read the file") }
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            size += count
        }
        return BundleManifest.FileEntry(sha256: HexDigits.lowercase(hasher.finalize()), size: size)
    }

    /// The SHA-256 of bytes in memory, as lowercase hex.
    static func sha256(_ bytes: [UInt8]) -> String {
        HexDigits.lowercase(SHA256.hash(data: bytes))
    }
}
