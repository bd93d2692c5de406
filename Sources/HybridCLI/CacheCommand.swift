import ArgumentParser
import Foundation
import HybridAppRunner
import HybridTerm

/// `hybrid cache list [APP] | clear APP [VERSION] | forget-bad APP VERSION` (SPEC §5–6): what
/// is installed under `$XDG_CACHE_HOME/hybridterm/`, and its boot records.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "List installed bundles and their boot records, clear them, or forget a bad mark.",
        subcommands: [List.self, Clear.self, ForgetBad.self]
    )

    /// `hybrid cache list [APP]`: one line per version, newest first.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the installed versions of every app (or of APP): version, boot state, and why a bad one failed."
        )

        @Argument(help: "An app's name (default: every app in the cache).")
        var app: String?

        func run() throws {
            let cache = BundleCache.standard()
            if let app { try CacheCommand.reporting { () throws(BundleError) in try cache.requireInCache(app) } }
            let apps = app.map { [$0] } ?? cache.apps()
            if apps.isEmpty { print("nothing is installed in \(cache.root)") }
            for app in apps {
                for line in cache.listing(of: app) {
                    var text = "\(line.app) \(line.version) \(line.state)"
                    if !line.isOnDisk { text += " (removed)" }
                    if let reason = line.reason { text += ": \(reason)" }
                    print(text)
                }
            }
        }
    }

    /// `hybrid cache clear APP [VERSION]`.
    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            abstract: "Remove an app from the cache (its versions, boot record and the URLs bound to it), or one VERSION of it."
        )

        @Argument(help: "The app's name.")
        var app: String

        @Argument(help: "One version to remove (default: all of the app).")
        var version: SemanticVersion?

        func run() throws {
            let cache = BundleCache.standard()
            try CacheCommand.reporting { () throws(BundleError) in
                if let version { try cache.clear(version, of: app) } else { try cache.clear(app: app) }
            }
            print("cleared \(app)\(version.map { " \($0)" } ?? "") from \(cache.root)")
        }
    }

    /// `hybrid cache forget-bad APP VERSION`.
    struct ForgetBad: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "forget-bad",
            abstract: "Forget that VERSION of APP failed to start, so it is launched (or installed) again."
        )

        @Argument(help: "The app's name.")
        var app: String

        @Argument(help: "The version marked bad.")
        var version: SemanticVersion

        func run() throws {
            let cache = BundleCache.standard()
            try CacheCommand.reporting { () throws(BundleError) in try cache.forgetBad(version, of: app) }
            print("\(app) \(version) is no longer marked bad")
        }
    }

    /// Runs `body`, turning its error into `hybrid cache: …` on standard error and exit 1.
    static func reporting(_ body: () throws(BundleError) -> Void) throws {
        do {
            try body()
        } catch {
            throw UserFailure.reporting("hybrid cache: \(error)")
        }
    }
}

extension SemanticVersion: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}
