#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files removed when the process is interrupted (SIGINT, SIGTERM, SIGHUP), so what a file's
/// presence means stays true after the process is gone. A boot marker is one: present, it says
/// "this start never finished" and condemns the version at the next launch; an interrupt is not
/// the version's failure, so the marker goes with the interrupt — while a crash or `kill -9`
/// leaves it in place.
///
/// The handler uses async-signal-safe calls only (`unlink`, `sigaction`, `raise`), then hands
/// the signal on to the handler that was there before (the terminal session's, which restores
/// the terminal and ends the process) or, when there was none, ends the process as the signal
/// would have. A signal the process ignores stays ignored.
public enum InterruptCleanup {
    /// The signals that interrupt: Ctrl-C, `kill`, a closed terminal.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// How many paths can be registered at once.
    static var capacity: Int { 32 }

    /// Registered paths as C strings; a slot is `nil` when free. Never freed: a handler on
    /// another thread may be reading one.
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()
    /// The handlers replaced, by signal number.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
        actions.initialize(repeating: sigaction(), count: Int(NSIG))
        return actions
    }()
    nonisolated(unsafe) private static var installed = false
    private static let lock = Mutex()

    /// Removes the file at `path` if the process is interrupted before `keep(path)` is called;
    /// false when every slot is taken (the file then stays on an interrupt).
    @discardableResult
    public static func removeOnInterrupt(_ path: String) -> Bool {
        lock.locked {
            installOnce()
            for slot in 0..<capacity {
                if let registered = paths[slot], String(cString: registered) == path { return true }
            }
            for slot in 0..<capacity where paths[slot] == nil {
                paths[slot] = strdup(path)
                return true
            }
            return false
        }
    }

    /// Stops removing `path` on an interrupt.
    public static func keep(_ path: String) {
        lock.locked {
            for slot in 0..<capacity {
                if let registered = paths[slot], String(cString: registered) == path { paths[slot] = nil }
            }
        }
    }

    private static func installOnce() {
        guard !installed else { return }
        installed = true
        // Lazy globals are made here, never first in the handler.
        _ = (paths, previous)
        for signal in signals {
            var old = sigaction()
            sigaction(signal, nil, &old)
            // An ignored signal (`nohup`) does not interrupt: leave it ignored.
            if old.sa_flags & SA_SIGINFO == 0 && address(of: old) == ignored { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in InterruptCleanup.handle(number) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, &previous[Int(signal)])
        }
    }

    /// `SIG_IGN`'s value (`SIG_DFL` is 0, a `nil` handler in Swift).
    private static var ignored: Int { 1 }

    private static func address(of action: sigaction) -> Int {
        action.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) } ?? 0
    }

    /// In the signal handler: async-signal-safe calls only.
    private static func handle(_ number: Int32) {
        for slot in 0..<capacity {
            if let path = paths[slot] { unlink(path) }
        }
        let before = previous[Int(number)]
        if before.sa_flags & SA_SIGINFO == 0, address(of: before) != ignored, let handler = before.__sigaction_handler.sa_handler {
            handler(number)
            return
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigaction(number, &action, nil)
        raise(number)
    }

    /// A `pthread_mutex_t` for registrations (never taken in the handler).
    private final class Mutex: @unchecked Sendable {
        private var mutex = pthread_mutex_t()
        init() { pthread_mutex_init(&mutex, nil) }
        func locked<T>(_ body: () -> T) -> T {
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            return body()
        }
    }
}
