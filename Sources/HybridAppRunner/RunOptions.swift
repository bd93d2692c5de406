import ArgumentParser
import HybridTerm

/// The options of every command that runs an app (`hybrid run`, `shop-demo`): where it draws
/// (a terminal, or headless with scripted keys) and which bundle signers it trusts.
public struct RunOptions: ParsableArguments {
    /// Frame size in cells (headless; a terminal uses its own size).
    @Option(parsing: .unconditional, help: "Frame size in cells, WIDTHxHEIGHT, each 1 to 1000 (headless; a terminal uses its own size).",
            transform: TerminalSize.argument)
    public var size: TerminalSize = .standard

    /// Run without a terminal and print the final frame.
    @Flag(help: "Run without a terminal and print the final frame.")
    public var headless = false

    /// Keys to press in a headless run.
    @Option(help: "Keys to press in a headless run: tab, shift+tab, enter, esc, up, down, left, right, space, backspace, ctrl+c, pageup, pagedown, single characters, \"quoted text\", wait:200ms.")
    public var keys: String = ""

    /// Trusted public key files.
    @Option(name: .customLong("pubkey"), help: "A trusted public key file (NAME.pub) for signed bundles; repeat to trust several.")
    public var publicKeys: [String] = []

    /// A JSON file of the secrets signed API services use (SPEC §7.1).
    @Option(help: "A JSON object of secret names to strings, for API services that sign their requests (scripts never see them).")
    public var secrets: String?

    /// What to trace, a line per call: `net` (API calls), `db` (the scripts' database statements).
    @Option(help: "Print a line per call of what is named, comma-separated: net (API calls: request id, API, cache, status, ms), db.")
    public var trace: String?

    /// A file every console line and problem of the run is appended to, in full.
    @Option(help: "Append every console line and problem (in full, with its time) to this file as the app runs.")
    public var log: String?

    /// Seconds a new bundle version has to call hybrid.ready(). Its value is read whatever it
    /// starts with, so `-1` is refused for being negative, not taken for a missing value.
    @Option(parsing: .unconditional, help: "Seconds a new bundle version has to call hybrid.ready() before it is marked bad (above 0).")
    public var readyTimeout: Double = 5

    /// Options as parsed.
    public init() {}

    public func validate() throws {
        if !keys.isEmpty && !headless { throw ValidationError("--keys needs --headless") }
        do {
            _ = try KeyScript(parsing: keys)
        } catch {
            throw ValidationError(error.description)
        }
        for part in (trace ?? "").split(separator: ",") where !["net", "db"].contains(part) {
            throw ValidationError("--trace takes net and db (comma-separated), got \"\(part)\"")
        }
        guard readyTimeout > 0, readyTimeout.isFinite else {
            throw ValidationError("--ready-timeout takes a number of seconds above 0 (like 5 or 0.5), got \(readyTimeout)")
        }
    }

    /// The loop to run an app from `source` on. A headless run gets a manual clock, so `wait:`
    /// in `--keys` takes no wall time and timers fire the same way on every run. A terminal
    /// needs real time, and so does a development URL: its edits come from outside while the
    /// run waits, so its `wait:` must last as long as it says.
    public func makeEventLoop(for source: BundleSource?) -> EventLoop {
        if case .development? = source { return EventLoop() }
        return EventLoop(clock: headless ? .manual(ManualClock()) : .system)
    }

    /// Whether `--trace` names `what`.
    public func traces(_ what: String) -> Bool {
        (trace ?? "").split(separator: ",").contains { $0 == what }
    }

    /// The secrets of `--secrets`, none without it; a file that cannot be read or is not an
    /// object of strings is a user error naming it.
    public func secretValues() throws -> [String: String] {
        guard let secrets else { return [:] }
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.contents(of: secrets)
        } catch {
            throw UserFailure.reporting("\(secrets): cannot read the file: \(error.reason)")
        }
        guard case .object(let object)? = try? JSONParser.parse(bytes).plain else {
            throw UserFailure.reporting("\(secrets): expected a JSON object of secret names to strings")
        }
        var values: [String: String] = [:]
        for member in object {
            guard case .string(let value) = member.value else {
                throw UserFailure.reporting("\(secrets): the secret \(DiagnosticText.quoted(member.key)) must be a string")
            }
            values[member.key] = value
        }
        return values
    }

    /// The trusted keys, read from `publicKeys`; an unreadable one is a user error.
    public func trustedKeys() throws -> [BundlePublicKey] {
        try Self.readKeys(publicKeys)
    }

    /// Reads public key files, reporting the first that cannot be read (a user error).
    public static func readKeys(_ paths: [String]) throws -> [BundlePublicKey] {
        var keys: [BundlePublicKey] = []
        for path in paths {
            do {
                keys.append(try BundlePublicKey(contentsOf: path))
            } catch {
                // The key error names the file already.
                throw UserFailure.reporting(error.description)
            }
        }
        return keys
    }
}
