import Crypto
import Foundation
import HybridBundles
import HybridJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What tells one version of a file from the next without reading it: size, modification and
/// change times (to the nanosecond) and inode (an editor's save-by-rename makes a new one).
struct FileStamp: Equatable, Sendable {
    var size: Int
    var modified: Int64
    var modifiedNanoseconds: Int
    var changed: Int64
    var changedNanoseconds: Int
    var inode: UInt64

    init(_ info: stat) {
        size = Int(info.st_size)
        #if canImport(Darwin)
        modified = Int64(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
        changed = Int64(info.st_ctimespec.tv_sec)
        changedNanoseconds = Int(info.st_ctimespec.tv_nsec)
        #else
        modified = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec)
        changedNanoseconds = Int(info.st_ctim.tv_nsec)
        #endif
        inode = UInt64(info.st_ino)
    }
}

/// The files of a bundle folder as `serve` shows them: every regular file under the root,
/// `manifest.json` and `manifest.sig` included, by bundle path in byte order. Names starting
/// with `.` (editor swap files, `.git`) and symbolic links are skipped, never followed, as are
/// names a bundle path cannot spell (backslashes, control characters).
enum FolderListing {
    struct Entry: Equatable, Sendable {
        var path: String
        var stamp: FileStamp
    }

    /// The listing of the folder at `root`; empty when it is missing or unreadable.
    static func entries(in root: String) -> [Entry] {
        var found: [Entry] = []
        walk(root: root, relative: "", into: &found)
        return found.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    private static func walk(root: String, relative: String, into found: inout [Entry]) {
        let folder = relative.isEmpty ? root : root + "/" + relative
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where !name.hasPrefix(".") {
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(root + "/" + path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: walk(root: root, relative: path, into: &found)
            case S_IFREG where BundlePath.isValid(path): found.append(Entry(path: path, stamp: FileStamp(info)))
            default: continue
            }
        }
    }

    /// Whether the bundle path `path` under `root` can be served: no part of it is a symbolic
    /// link or starts with `.`, and it names a regular file. `nil` when it can, else why not.
    static func problem(serving path: String, in root: String) -> String? {
        var partial = root
        let segments = path.split(separator: "/")
        for (index, segment) in segments.enumerated() {
            let shown = segments[...index].joined(separator: "/")
            if segment.hasPrefix(".") { return "\"\(shown)\" starts with \".\"; hidden files are not served" }
            partial += "/" + segment
            var info = stat()
            guard lstat(partial, &info) == 0 else { return "\"\(shown)\" does not exist in the bundle folder" }
            switch info.st_mode & S_IFMT {
            case S_IFLNK: return "\"\(shown)\" is a symbolic link; only regular files inside the folder are served"
            case S_IFDIR where index < segments.count - 1: continue
            case S_IFDIR: return "\"\(shown)\" is a folder; name a file"
            case S_IFREG where index == segments.count - 1: return nil
            default: return "\"\(shown)\" is not a regular file"
            }
        }
        return "name a file"
    }

    /// The bytes of the regular file at `path`, opened without following a final link.
    static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let data = try? handle.readToEnd() ?? Data() else { return nil }
        return Array(data)
    }

    /// The SHA-256 of `bytes` as lowercase hex.
    static func sha256(_ bytes: [UInt8]) -> String {
        HexDigits.lowercase(SHA256.hash(data: bytes))
    }
}
