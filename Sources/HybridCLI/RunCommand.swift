import ArgumentParser
import Foundation
import HybridTerm

/// `hybrid run TARGET`: runs a screen or a bundle folder, in the terminal or headless.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a screen (.json) or a bundle folder, in the terminal or headless.",
        discussion: """
        With --headless there is no terminal: --keys is a space-separated list of key names \
        (tab, shift+tab, enter, esc, up, down, left, right, space, backspace, ctrl+c, pageup, \
        pagedown, single characters), "quoted text" typed as is, and wait:200ms to let timers \
        run; the final frame is printed as plain text.
        """
    )

    @Argument(help: "A screen document (.json) or a bundle folder (with manifest.json).")
    var target: String

    @Option(help: "Frame size in cells, WIDTHxHEIGHT (headless; a terminal uses its own size).")
    var size: TerminalSize = .standard

    @Flag(help: "Run without a terminal and print the final frame.")
    var headless = false

    @Option(help: "Keys to press in a headless run.")
    var keys: String = ""

    func validate() throws {
        if !keys.isEmpty && !headless { throw ValidationError("--keys needs --headless") }
        do {
            _ = try KeyScript(parsing: keys)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let app = HybridApp()
        // The session comes before the app opens anything: a bundle's script creates the
        // JavaScriptCore context, whose fault handlers must be installed after ours.
        var session: TerminalSession?
        if !headless {
            do {
                var options = TerminalSession.Options()
                options.holdStandardError = true
                session = try TerminalSession(options: options)
            } catch {
                FileHandleOutput.standardError("hybrid run: \(error) (use --headless to run without one)")
                throw UserFailure()
            }
        }
        app.size = session?.size() ?? (size.width, size.height)
        // In a terminal, problems show on the status line while running and are printed once
        // the terminal is back to normal; printing them at once would scribble over the screen.
        var problems: [String] = []
        if session != nil { app.onProblem = { problems.append($0) } }
        defer { problems.forEach(FileHandleOutput.standardError) }
        do {
            try open(target, in: app)
        } catch let error as AppError {
            // The message comes after the terminal is back to normal, so it stays readable.
            session?.restore()
            FileHandleOutput.standardError(error.description)
            throw UserFailure()
        }
        guard let session else {
            let frame = HeadlessDriver.run(app, keys: try KeyScript(parsing: keys))
            FileHandleOutput.standardOutput(Array((frame.plainLines().joined(separator: "\n") + "\n").utf8))
            return
        }
        TerminalDriver(app: app, session: session, colors: ColorSupport.detect(environment: ProcessInfo.processInfo.environment)).run()
        session.restore()
    }

    private func open(_ target: String, in app: HybridApp) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isFolder) else {
            throw AppError("\(target): no such file or folder")
        }
        if isFolder.boolValue {
            let load = BundleFolder.open(target)
            for line in load.formattedDiagnostics { FileHandleOutput.standardError(line) }
            guard let bundle = load.bundle, !load.hasErrors else { throw AppError("\(target): the bundle cannot run") }
            try app.registerBuiltIns(app: bundle.manifest.app, screenSize: { TerminalGeometry.size() })
            try app.load(bundle: bundle)
        } else {
            let name = ((target as NSString).lastPathComponent as NSString).deletingPathExtension
            try app.registerBuiltIns(app: name.isEmpty ? "screen" : name, screenSize: { TerminalGeometry.size() })
            try app.open(file: target)
        }
    }
}
