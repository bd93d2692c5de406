import Crypto
import Foundation
import HybridFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a bundle folder as signing sees them: every regular file under the root except
/// the root's `manifest.json` and `manifest.sig`, by bundle path, in byte order. Symbolic links,
/// devices and paths breaking `BundlePath` rules are refused, never followed.
enum BundleContents {
    /// The bundle paths of the files under `root` (an existing folder).
    static func files(in root: String) throws(BundleError) -> [String] {
        var found: [String] = []
        try walk(root: root, relative: "", into: &found)
        return found.sorted(by: byteOrder)
    }

    /// Bundle paths sort by their UTF-8 bytes, so every tool lists them alike.
    static func byteOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    private static func walk(root: String, relative: String, into found: inout [String]) throws(BundleError) {
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
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                throw BundleError(.symbolicLink, file: path, "is a symbolic link; a signed bundle holds regular files only")
            case S_IFDIR:
                try walk(root: root, relative: path, into: &found)
            case S_IFREG:
                if let problem = BundlePath.problem(with: path) {
                    throw BundleError(.unsafePath, file: path, problem)
                }
                found.append(path)
            default:
                throw BundleError(.notRegularFile, file: path, "is not a regular file")
            }
        }
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
        return BundleManifest.FileEntry(sha256: Digest.hex(hasher.finalize()), size: size)
    }

    /// The SHA-256 of bytes in memory, as lowercase hex.
    static func sha256(_ bytes: [UInt8]) -> String {
        Digest.hex(SHA256.hash(data: bytes))
    }
}
