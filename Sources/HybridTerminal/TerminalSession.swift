#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A full-screen session on a terminal: raw input, the alternate screen, a hidden cursor,
/// mouse and bracketed-paste reporting — and the terminal put back as it was on every way out.
///
/// It also asks the terminal what it has (`TerminalCapabilities.query`); the caller hands the
/// answers it decodes to `take(_:)`. Where the terminal has the kitty keyboard protocol, the
/// session pushes its flags, and pops them on every way out, signals included.
///
/// `restore()` runs on a normal end or an error (call it before printing the message). For
/// signals, handlers restore the terminal from state prepared in advance, using only
/// async-signal-safe calls: SIGTERM, SIGHUP, SIGINT and SIGQUIT then end the process as the
/// signal would have, and so does every other signal whose default is to end the process
/// (SIGALRM, SIGPIPE, SIGUSR2, SIGVTALRM, SIGXCPU…) where nothing else handles or ignores it;
/// crash signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS) restore and then
/// chain to the handler that was there before. SIGUSR1 is never taken (JavaScriptCore uses it).
/// Create the session before the first JavaScriptCore context, so that JavaScriptCore's own
/// SIGSEGV/SIGBUS handlers, installed later, see their faults first and chain to ours.
public final class TerminalSession {
    /// Where keys come from.
    public let input: Int32
    /// Where frames go.
    public let output: Int32
    /// Becomes readable when the terminal was resized (SIGWINCH); drain it with `takeResize()`.
    public let resizeDescriptor: Int32

    /// Options for the session.
    public struct Options: Sendable {
        /// Report mouse clicks, drags and the wheel.
        public var mouse = true
        /// Wrap pastes in markers so they arrive as one event.
        public var bracketedPaste = true
        /// Use the kitty keyboard protocol where the terminal answers that it has it.
        public var keyboardProtocol = true
        /// Hold back what the process writes to standard error while the session runs (log
        /// lines, a crash's message), and print it once the terminal is restored: written
        /// during the session it would land in the middle of the screen and vanish with it.
        public var holdStandardError = false

        /// The defaults: mouse and bracketed paste on.
        public init() {}
    }

    /// What the terminal answered so far.
    public private(set) var capabilities = TerminalCapabilities()

    private let resizeWrite: Int32
    /// The raw settings and the bytes that enter the session, to enter it again after `suspend()`.
    private let raw: termios
    private let enter: [UInt8]
    private let usesKeyboardProtocol: Bool

    /// Enters the session on `input`/`output` (usually standard input and output).
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, options: Options = Options()) throws(TerminalError) {
        guard isatty(input) == 1, isatty(output) == 1 else { throw TerminalError("standard input and output must be a terminal") }
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { throw TerminalError("cannot read the terminal's settings") }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TerminalError("cannot create the resize pipe") }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        self.input = input
        self.output = output
        resizeDescriptor = fds[0]
        resizeWrite = fds[1]

        var enter = TerminalControl.enterAlternateScreen + TerminalControl.hideCursor + TerminalControl.clearScreen
        var leave = TerminalControl.resetStyle
        if options.mouse {
            enter += TerminalControl.enableMouse
            leave += TerminalControl.disableMouse
        }
        if options.bracketedPaste {
            enter += TerminalControl.enableBracketedPaste
            leave += TerminalControl.disableBracketedPaste
        }
        leave += TerminalControl.showCursor + TerminalControl.leaveAlternateScreen
        usesKeyboardProtocol = options.keyboardProtocol
        SessionState.prepare(input: input, output: output, saved: saved, leave: leave, resizeWrite: resizeWrite)
        if options.holdStandardError { SessionState.holdStandardError() }
        SignalHandlers.installOnce()

        var raw = saved
        // What cfmakeraw does, keeping output post-processing off too: every byte is ours.
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            SessionState.clear()
            throw TerminalError("cannot switch the terminal to raw mode")
        }
        self.raw = raw
        self.enter = enter
        write(enter + TerminalCapabilities.query)
    }

    /// Takes in one of the terminal's answers: the first that says it has the kitty keyboard
    /// protocol pushes the session's flags.
    public func take(_ report: TerminalReport) {
        let had = capabilities.keyboardProtocol
        capabilities.update(with: report)
        if !had && capabilities.keyboardProtocol && usesKeyboardProtocol {
            write(TerminalControl.pushKeyboardFlags)
            SessionState.keyboardFlagsPushed = 1
        }
    }

    /// Ctrl-Z: puts the terminal back as it was and stops the process group, as the shell's
    /// job control expects (SIGTSTP, what the terminal itself sends outside raw mode); once it
    /// is continued (`fg`), enters the session again. The caller draws the whole screen again.
    /// A group no shell controls (an orphaned one) is not stopped: the session comes back at once.
    public func suspend() {
        SessionState.leaveForSuspend()
        kill(0, SIGTSTP)
        var settings = raw
        _ = tcsetattr(input, TCSAFLUSH, &settings)
        write(enter + (SessionState.keyboardFlagsPushed == 1 ? TerminalControl.pushKeyboardFlags : []))
    }

    deinit {
        restore()
        close(resizeDescriptor)
        close(resizeWrite)
    }

    /// Writes bytes to the terminal, all of them.
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { SessionState.writeAll(output, $0.baseAddress, $0.count) }
    }

    /// The terminal's size in cells (`.standard` when it will not say).
    public func size() -> TerminalSize {
        TerminalSize.query(output) ?? .standard
    }

    /// Whether a resize happened since the last call (drains the resize descriptor).
    public func takeResize() -> Bool {
        var sink = [UInt8](repeating: 0, count: 64)
        var resized = false
        while read(resizeDescriptor, &sink, sink.count) > 0 { resized = true }
        return resized
    }

    /// Puts the terminal back as it was; safe to call more than once.
    public func restore() {
        SessionState.restore()
    }
}

/// Why a terminal session could not start.
public struct TerminalError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// What the signal handlers need, prepared while it is safe to allocate: a signal handler may
/// only read it and make async-signal-safe calls.
enum SessionState {
    nonisolated(unsafe) static var active: sig_atomic_t = 0
    nonisolated(unsafe) static var input: Int32 = -1
    nonisolated(unsafe) static var output: Int32 = -1
    nonisolated(unsafe) static var resizeWrite: Int32 = -1
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var leave = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    /// Set once the kitty keyboard flags are pushed: leaving pops them first.
    nonisolated(unsafe) static var keyboardFlagsPushed: sig_atomic_t = 0
    /// `TerminalControl.popKeyboardFlags`, held where a signal handler may read it.
    nonisolated(unsafe) static let popKeyboardFlags: UnsafeMutableBufferPointer<UInt8> = {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: TerminalControl.popKeyboardFlags.count)
        _ = buffer.initialize(from: TerminalControl.popKeyboardFlags)
        return buffer
    }()
    /// The real standard error while it is held, and the file holding what was written.
    nonisolated(unsafe) static var realStandardError: Int32 = -1
    nonisolated(unsafe) static var heldStandardError: Int32 = -1

    static func prepare(input: Int32, output: Int32, saved: termios, leave bytes: [UInt8], resizeWrite: Int32) {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        let old = leave
        leave = buffer
        old.deallocate()
        self.input = input
        self.output = output
        self.saved = saved
        self.resizeWrite = resizeWrite
        keyboardFlagsPushed = 0
        _ = popKeyboardFlags
        active = 1
    }

    static func clear() {
        active = 0
    }

    /// Points standard error at an unlinked temporary file until `restore`.
    static func holdStandardError() {
        var template = Array("/tmp/hybrid-stderr-XXXXXX".utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else { return }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        realStandardError = dup(STDERR_FILENO)
        heldStandardError = file
        dup2(file, STDERR_FILENO)
    }

    /// Async-signal-safe: `write`, `read`, `lseek`, `dup2`, `close` and `tcsetattr` only.
    static func restore() {
        guard active == 1 else { return }
        active = 0
        resizeWrite = -1
        writeLeave()
        keyboardFlagsPushed = 0
        _ = tcsetattr(input, TCSAFLUSH, &saved)
        releaseStandardError()
    }

    /// Puts the terminal back as it was for a stop, keeping the session (and standard error
    /// held): a signal that ends the process while it is stopped still restores it.
    static func leaveForSuspend() {
        guard active == 1 else { return }
        writeLeave()
        _ = tcsetattr(input, TCSAFLUSH, &saved)
    }

    /// The bytes that leave the session, the keyboard flags' pop first when they were pushed.
    private static func writeLeave() {
        if keyboardFlagsPushed == 1 { writeAll(output, popKeyboardFlags.baseAddress, popKeyboardFlags.count) }
        writeAll(output, leave.baseAddress, leave.count)
    }

    /// Puts standard error back and writes out what was held, now that the screen is normal.
    private static func releaseStandardError() {
        guard realStandardError >= 0, heldStandardError >= 0 else { return }
        dup2(realStandardError, STDERR_FILENO)
        lseek(heldStandardError, 0, SEEK_SET)
        var chunk = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
                     UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &chunk) { buffer in
            while true {
                let count = read(heldStandardError, buffer.baseAddress, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                writeAll(STDERR_FILENO, buffer.baseAddress, count)
            }
        }
        close(heldStandardError)
        close(realStandardError)
        heldStandardError = -1
        realStandardError = -1
    }

    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) {
        guard let bytes else { return }
        var offset = 0
        while offset < count {
            let written = Glibc.write(descriptor, bytes + offset, count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}

/// Installs, once per process, the handlers that restore the terminal.
enum SignalHandlers {
    nonisolated(unsafe) static var installed = false
    /// The handlers we replaced, by signal number: a plain buffer, readable in a handler.
    nonisolated(unsafe) static var previous = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
    static let endSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]
    /// Signals that end the process by default and that nothing here sends: taken only while
    /// their action is still the default, so a library that ignores one (SIGPIPE, say) keeps it.
    static let otherEndSignals: [Int32] = [SIGALRM, SIGPIPE, SIGUSR2, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPOLL, SIGPWR, SIGSTKFLT]
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]

    static func installOnce() {
        guard !installed else { return }
        installed = true
        previous.initialize(repeating: sigaction(), count: Int(NSIG))
        for signal in endSignals + otherEndSignals.filter(hasDefaultAction) {
            install(signal) { number in
                SessionState.restore()
                // End the way the signal would have: default action, then re-raise.
                var action = sigaction()
                action.__sigaction_handler.sa_handler = SIG_DFL
                sigaction(number, &action, nil)
                raise(number)
            }
        }
        for signal in crashSignals {
            installWithInfo(signal) { number, info, _ in
                SessionState.restore()
                SignalHandlers.chain(number, sentByProcess: (info?.pointee.si_code ?? 0) <= 0)
            }
        }
        install(SIGWINCH) { _ in
            // After the session the pipe is closed and its number may be reused elsewhere.
            guard SessionState.resizeWrite >= 0 else { return }
            var byte: UInt8 = 1
            _ = Glibc.write(SessionState.resizeWrite, &byte, 1)
        }
    }

    /// Whether `signal`'s action is the default one (neither ignored nor handled).
    private static func hasDefaultAction(_ signal: Int32) -> Bool {
        var current = sigaction()
        sigaction(signal, nil, &current)
        return current.__sigaction_handler.sa_handler == nil && current.sa_flags & SA_SIGINFO == 0
    }

    private static func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = signal == SIGWINCH ? SA_RESTART : 0
        var old = sigaction()
        sigaction(signal, &action, &old)
        previous[Int(signal)] = old
    }

    private static func installWithInfo(_ signal: Int32,
                                        _ handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_SIGINFO
        var old = sigaction()
        sigaction(signal, &action, &old)
        previous[Int(signal)] = old
    }

    /// Hands a crash signal to whoever handled it before us (or the default action) by putting
    /// their handler back. A real fault returns: the faulting instruction runs again and faults
    /// into that handler with the original fault information. A signal another process sent
    /// (`kill`; its `si_code` is not positive) would not come again by itself, so it is raised.
    static func chain(_ signal: Int32, sentByProcess: Bool) {
        sigaction(signal, previous + Int(signal), nil)
        if sentByProcess { raise(signal) }
    }
}
