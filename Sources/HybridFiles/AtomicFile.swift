#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replacing a file whole, so that a crash at any moment leaves either the old content or the
/// new, never a mix: the bundle cache's boot record and origins, and an app's storage.
public enum AtomicFile {
    /// Replaces the file at `path` with `bytes` (creating its folder when missing).
    ///
    /// The bytes go to a new temporary sibling — every one of them: a short write is carried on,
    /// not taken for the end — which is flushed to disk and renamed over `path`; then the folder
    /// is flushed, so the rename (a change to the folder, not the file) survives a crash too.
    /// On failure the temporary file is removed and `path` is left as it was.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(FileError) {
        let folder = FileSystem.parentFolder(of: path)
        try FileSystem.createFolder(folder)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        // Hidden, and unique to this write: two writers never share a temporary file.
        let temporary = FileSystem.join(folder, ".\(name).\(getpid())-\(UInt32.random(in: .min ... .max)).tmp")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileError(path, "write") }
        var failure: FileError?
        if !writeAll(bytes, to: descriptor) {
            failure = FileError(path, "write")
        } else if fsync(descriptor) != 0 {
            failure = FileError(path, "flush")
        }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = FileError(path, "write") }
        if let failure {
            unlink(temporary)
            throw failure
        }
        try flushFolder(folder)
    }

    /// Flushes a folder's entries to disk. A file system that cannot flush folders (`EINVAL`)
    /// leaves nothing more to do.
    private static func flushFolder(_ folder: String) throws(FileError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(folder, "flush the folder") }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 && errno != EINVAL { throw FileError(folder, "flush the folder") }
    }
}

/// Writes all of `bytes`, carrying on after short writes and interruptions; false when the
/// descriptor refuses more (`errno` says why). At file scope, where `write` is the system's.
private func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                if count == 0 { errno = EIO }
                return false
            }
            offset += count
        }
        return true
    }
}
