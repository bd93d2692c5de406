#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system questions the runtime asks (what is at a path, where a link leads),
/// answered with POSIX calls so symbolic links are resolved the way the kernel will resolve them
/// when the runtime opens the file. Bundles ask most: a path must not leave its bundle.
public enum FileSystem {
    /// What is at a path once every link is followed.
    public enum Kind: Sendable {
        case missing, file, folder, other
    }

    /// The absolute path with every symbolic link, `.` and `..` resolved; `nil` when some part
    /// does not exist (a dangling link included).
    public static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// What `path` is, following links.
    public static func kind(_ path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    /// Whether `path` itself (not what it points to) exists, so a dangling link is told apart
    /// from a missing file.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether `path` itself is a symbolic link.
    public static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// Where a symbolic link points, as written in the link.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `folder/relative`, without doubling a trailing slash.
    public static func join(_ folder: String, _ relative: String) -> String {
        folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
    }

    /// Creates the folder at `path` and every missing folder above it (`mkdir -p`); a folder
    /// already there is fine.
    public static func createFolder(_ path: String, mode: mode_t = 0o755) throws(FileError) {
        guard !path.isEmpty, kind(path) != .folder else { return }
        let parent = parentFolder(of: path)
        if parent != path { try createFolder(parent, mode: mode) }
        guard mkdir(path, mode) == 0 || errno == EEXIST && kind(path) == .folder else { throw FileError(path, "create the folder") }
    }

    /// The last part of `path` (`k` for `a/k` and for `k`), trailing slashes ignored. Paths
    /// are taken apart here, never with `NSString`'s path methods, which trap on some short
    /// names in swift-corelibs-foundation (`hybrid bundle keygen k` did).
    public static func lastComponent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        let name = trimmed[trimmed.index(after: slash)...]
        return name.isEmpty ? "/" : String(name)
    }

    /// The extension of `path`'s last part, without its dot: `json` for `a/home.json`; empty
    /// for `k`, `.hidden` and `k.`.
    public static func fileExtension(of path: String) -> String {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The folder holding `path` (`.` for a bare name, `/` for a name at the root).
    public static func parentFolder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }
}
