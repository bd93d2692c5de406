#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a lock file, held while a piece of work runs: how the runtime keeps
/// two writers of one file (in several processes, or several objects of one process) from
/// losing each other's changes.
public enum FileLock {
    /// Runs `body` holding an exclusive lock on the file at `path`, created with `mode` (and its
    /// folder) when missing; waits for whoever holds it. Each call opens the file anew and so is
    /// its own lock owner: it excludes other processes and other callers in this process alike.
    ///
    /// - Parameter failure: the caller's error for a lock that cannot be taken.
    public static func withExclusiveLock<Result, Failure: Error>(
        on path: String, mode: mode_t = 0o644, failure: (FileError) -> Failure,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let descriptor: Int32
        do throws(FileError) {
            descriptor = try lock(path, mode: mode)
        } catch {
            throw failure(error)
        }
        // Closing the descriptor releases the lock.
        defer { close(descriptor) }
        return try body()
    }

    /// Opens `path` and locks it, answering the descriptor to close.
    private static func lock(_ path: String, mode: mode_t) throws(FileError) -> Int32 {
        try FileSystem.createFolder(FileSystem.parentFolder(of: path))
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileError(path, "open") }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let error = FileError(path, "lock")
            close(descriptor)
            throw error
        }
        return descriptor
    }
}
