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

/// A shared `flock` held until `release()` (or the process ends, however it ends): how several
/// processes use one scratch folder at once, while the first to find it unused may clear what
/// killed processes left there.
public final class SharedFileLock: @unchecked Sendable {
    private var descriptor: Int32

    /// Takes a shared lock on the file at `path` (created, with its folder, when missing). When
    /// no other holder exists, `whenAlone` runs first, under the lock held exclusively.
    public init(path: String, whenAlone: () -> Void) throws(FileError) {
        try FileSystem.createFolder(FileSystem.parentFolder(of: path))
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileError(path, "open") }
        if Self.flockRetrying(descriptor, LOCK_EX | LOCK_NB) { whenAlone() }
        guard Self.flockRetrying(descriptor, LOCK_SH) else {
            let error = FileError(path, "lock")
            close(descriptor)
            throw error
        }
    }

    /// Releases the lock; later calls do nothing.
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }

    private static func flockRetrying(_ descriptor: Int32, _ operation: Int32) -> Bool {
        while flock(descriptor, operation) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }
}
