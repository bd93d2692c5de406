#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads without Foundation's `Data` round trip (documents are read on the
/// first-frame path), of at most `maximumSize` bytes.
public enum FileBytes {
    /// The most a file read whole may hold: every file a user names or a bundle brings
    /// (screens, scripts, state, keys, manifests) is far smaller, and a path to something
    /// endless (`/dev/zero`, a pipe that never ends) must not take all the memory there is.
    public static let maximumSize = 64 << 20

    /// The whole file, or `nil` when it cannot be read (missing, a folder, no permission).
    public static func read(_ path: String) -> [UInt8]? {
        try? contents(of: path)
    }

    /// The whole file; when it cannot be read, a `FileError` whose reason says why in the
    /// system's words ("no such file or directory", "permission denied", "is a directory"), so
    /// a message about a file the user named can tell them what to fix.
    public static func contents(of path: String) throws(FileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(path) }
        // Opening a folder succeeds; reading it is what fails, so say so before trying.
        if info.st_mode & S_IFMT == S_IFDIR { throw failure(path, EISDIR) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw failure(path) }
            if count == 0 { return bytes }
            guard bytes.count + count <= maximumSize else {
                throw FileError(path, "read", reason: "it holds more than \(maximumSize >> 20) MiB, the most a file read here may hold")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// A read failure of `path`, its reason in lower case to fit inside a sentence.
    private static func failure(_ path: String, _ number: Int32 = errno) -> FileError {
        let reason = String(cString: strerror(number))
        return FileError(path, "read", reason: reason.prefix(1).lowercased() + reason.dropFirst())
    }
}
