import CJavaScriptCore
#if canImport(Glibc)
import Glibc
#endif

/// JavaScriptCore itself, loaded from Debian's `libjavascriptcoregtk-4.1-0` the first time a
/// context is made rather than linked: a program that runs no script (`hybrid render`,
/// `validate`) then starts without it and the libraries it needs.
public enum JavaScriptEngine {
    /// Why the engine cannot be loaded: the library or one of its functions is missing.
    public struct Unavailable: Error, CustomStringConvertible {
        /// What went wrong, with the library's name.
        public let description: String
    }

    /// Loads the engine, once; later calls answer as the first did. Programs call it before
    /// they take the terminal, so a machine without the library gets a message, not a raw
    /// screen.
    public static func load() throws(Unavailable) {
        if let failure = HybridJavaScriptCoreLoad() {
            throw Unavailable(description: String(cString: failure) + "; install it with: apt-get install libjavascriptcoregtk-4.1-0")
        }
    }

    /// Starts loading the engine on a thread of its own, for a program that will run scripts:
    /// loading it (the library and about twenty it needs) then takes place on another core
    /// while the program parses its arguments and sets up. `load()` waits for it to finish.
    public static func startLoading() {
        // The engine reads its options when it makes its first machine, maybe on that thread.
        _ = JavaScriptContext.pollingTraps
        HybridJavaScriptCoreStartLoading()
    }

    /// Asks the loading thread (`startLoading()`) to make the first context's virtual machine
    /// too, once the library is loaded (the thread waits for this); the next
    /// `JavaScriptContext` takes it. Only after a `TerminalSession`, if the program starts
    /// one, has started: the engine installs its fault handlers as it makes the machine, and
    /// the session's must be installed before them.
    public static func prepareFirstContext() {
        HybridJavaScriptCoreRequestPreparedContext()
    }

    /// Loads the engine for a context, or ends the process with the reason: no context can
    /// exist without it, and a host that did not call `load()` first has nothing to fall back on.
    static func loadForContext() {
        do {
            try load()
        } catch {
            let message = "error: \(error)\n"
            _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
            exit(1)
        }
    }
}
