#if canImport(Glibc)
import Glibc
#endif

/// A thread of the engine's own that nobody joins (the stuck-entry monitor), started with
/// POSIX threads: it must run while Swift's executors are busy or not yet used, and it lasts
/// as long as it needs, or as the process.
enum DetachedThread {
    /// Starts `routine` on a new detached thread.
    static func start(_ routine: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?) {
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_create(&thread, &attributes, routine, nil)
        pthread_attr_destroy(&attributes)
    }
}
