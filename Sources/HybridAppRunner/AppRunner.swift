import Foundation
import HybridTerm

/// Runs an app the way every HybridTerm program does: in the terminal (restored on every exit
/// path) or headless with scripted keys, with problems on standard error, exiting 1 when what
/// it was given cannot start or a screen it showed had errors in its document.
public enum AppRunner {
    /// Sets `app` up from `options`, lets `open` load what it runs, then drives it until it
    /// quits. Throws `UserFailure` when it could not start, ended because nothing could, or
    /// showed a screen whose document has errors (after drawing what it could).
    public static func run(_ app: HybridApp, options: RunOptions, open: @escaping @Sendable (HybridApp) async throws(AppError) -> Void) throws {
        PlainLogHandler.bootstrap()
        app.trustedKeys = try options.trustedKeys()
        app.secrets = try options.secretValues()
        if options.traces("net") { app.traceNetwork = { line in FileHandleOutput.standardError(line) } }
        if options.traces("db") { app.traceDatabase = { line in FileHandleOutput.standardError(line) } }
        app.readyTimeout = options.readyTimeout
        let log = try options.log.map(RunLog.init(path:))
        log?.attach(to: app)
        // Downloads come before the terminal session, so their progress bar and errors show
        // on the normal screen.
        let progress = FileHandleOutput.errorIsTerminal ? ProgressBar() : nil
        if let progress {
            app.downloadProgress = { received, expected in progress.show(received, of: expected) }
        }
        // Loaded before the session and before the app opens anything: a machine without the
        // library gets a message on the normal screen, before a bundle's start is recorded
        // (a start that never finished counts against its version), and the library sets
        // itself up before the session's handlers.
        do {
            try JavaScriptEngine.load()
        } catch {
            throw UserFailure.reporting("error: \(error)")
        }
        // The session comes before the app opens anything: a bundle's script creates the
        // JavaScriptCore context, whose fault handlers must be installed after ours.
        var session: TerminalSession?
        if !options.headless {
            do {
                var sessionOptions = TerminalSession.Options()
                sessionOptions.holdStandardError = true
                let started = try TerminalSession(options: sessionOptions)
                // A script the time limit cannot stop ends the process from another thread:
                // the terminal comes back first, and the held standard error with it.
                StuckEntryMonitor.beforeEnding = { started.restore() }
                session = started
            } catch {
                throw UserFailure.reporting("\(error) (use --headless to run without one)")
            }
        }
        // The session's fault handlers are in place (or none will be): the loading thread, if
        // the program started one, makes the first context's virtual machine while the app
        // opens what it runs.
        JavaScriptEngine.prepareFirstContext()
        app.size = session?.size() ?? options.size
        // Problems are written as they happen. In a terminal the session holds standard error
        // and prints it once the terminal is back to normal — on a signal too — so they come
        // out in the order they happened, before the message of a failure that refers to them.
        app.onProblem = { FileHandleOutput.standardError($0) }
        // The loop is not running yet, so the app may be touched from the task's thread.
        if let error = Blocking.run({ () async throws(AppError) in try await open(app) }) {
            progress?.finish()
            // The message comes after the terminal is back to normal, so it stays readable.
            session?.restore()
            throw UserFailure.reporting(error.description)
        }
        progress?.finish()
        if let session {
            let environment = ProcessInfo.processInfo.environment
            TerminalDriver(app: app, session: session, colors: ColorSupport.detect(environment: environment),
                           movesLines: FrameEncoder.movesLines(environment: environment)).run()
            app.runDidEnd()
            session.restore()
        } else {
            let frame = HeadlessDriver.run(app, keys: try KeyScript(parsing: options.keys))
            app.runDidEnd()
            // An app that ended because nothing could start has no frame worth printing: only
            // its message, already written.
            if app.failure == nil {
                FileHandleOutput.standardOutput(Array((frame.plainLines().joined(separator: "\n") + "\n").utf8))
            }
        }
        if app.failure != nil || app.openedDocumentWithErrors { throw UserFailure() }
    }
}
