import ArgumentParser
import Foundation
import HybridAppRunner
import HybridTerm

/// `hybrid run TARGET`: runs a screen, a bundle folder, a `.hbundle` archive or a bundle URL,
/// in the terminal or headless.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a screen (.json), a bundle folder, a .hbundle archive or a bundle URL, in the terminal or headless.",
        discussion: """
        Archives and URLs must be signed by a key given with --pubkey; they are installed into \
        $XDG_CACHE_HOME/hybridterm/APP/VERSION when newer than what is installed, and the newest \
        version that is not marked bad runs (offline, what is installed runs). A new version \
        that throws while starting, runs away, or does not call hybrid.ready() in time is \
        marked bad and the previous one runs; quitting or an interrupt (Ctrl-C, SIGTERM, \
        SIGHUP) while it starts is not held against it (see `hybrid cache list`). Downloads \
        have a 10 s deadline, and a URL stays bound to the app it first installed. A bundle \
        folder runs in place (unsigned: as a development bundle, with a warning).

        With --headless there is no terminal: --keys is a space-separated list of key names, \
        "quoted text" typed as is, and wait:200ms to let timers run; the final frame is printed \
        as plain text.
        """
    )

    @Argument(help: "A screen document (.json), a bundle folder, a .hbundle archive, or an http(s) URL of one.")
    var target: String

    @OptionGroup var options: RunOptions

    func validate() throws {
        if case .archive = source, options.publicKeys.isEmpty, !target.hasSuffix(".json"), source.missingPath == nil {
            throw ValidationError("missing --pubkey NAME.pub: an archive runs only when signed by a trusted key")
        }
        if case .url = source, options.publicKeys.isEmpty {
            throw ValidationError("missing --pubkey NAME.pub: a downloaded bundle runs only when signed by a trusted key")
        }
    }

    private var source: BundleSource { BundleSource(target: target) }

    func run() throws {
        let source = source
        let app = HybridApp(loop: options.makeEventLoop(for: source))
        try AppRunner.run(app, options: options) { (app) throws(AppError) in
            if let path = source.missingPath { throw AppError("\(path): no such file or folder") }
            switch source {
            case .archive(let path) where path.hasSuffix(".json"):
                let file = FileSystem.lastComponent(of: path)
                let name = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
                try app.registerBuiltIns(app: name.isEmpty ? "screen" : name, screenSize: { TerminalSize.query() ?? .standard })
                try app.open(file: path)
            default:
                try await app.load(bundle: source)
            }
        }
        // The run is over and its output written: end the process here rather than take the
        // app apart first (its JavaScript heap and context, its screens: about a millisecond
        // of a headless run's start-to-exit, BENCHMARKS.md "Start-up"). Nothing is lost: what
        // the app stores is written as it goes, and `exit` still flushes buffered output.
        withExtendedLifetime(app) { Glibc.exit(0) }
    }
}
