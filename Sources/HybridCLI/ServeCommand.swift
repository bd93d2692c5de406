import ArgumentParser
import Dispatch
import Foundation
import HybridAppRunner
import HybridServer
#if canImport(Glibc)
import Glibc
#endif

/// `hybrid serve DIR [--port N] [--host H]`: serves the bundles of a folder over HTTP until
/// SIGINT or SIGTERM (see `BundleServer` for the URLs).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the bundles of a folder over HTTP: .hbundle archives, and folders live while they are edited.",
        discussion: """
        DIR holds NAME.hbundle files and NAME/ bundle folders. The first line printed is \
        `serving DIR at http://HOST:PORT/`, then one line per bundle with its URL. Runs until \
        interrupted (SIGINT or SIGTERM), then exits 0. Each request is logged on standard error.
        """
    )

    @Argument(help: "The folder of bundles to serve.")
    var directory: String

    @Option(parsing: .unconditional, help: "The port to listen on, 0 to 65535; 0 picks a free one.")
    var port: Int = 8080

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535, got \(port)") }
        guard !host.isEmpty else { throw ValidationError("--host takes an address, got an empty one") }
    }

    func run() throws {
        guard #available(macOS 14, *) else { throw UserFailure.reporting("hybrid serve: needs macOS 14 or later") }
        let server: BundleServer
        do {
            server = try BundleServer(path: directory, options: BundleServer.Options(host: host, port: port))
        } catch {
            throw UserFailure.reporting("hybrid serve: \(error)")
        }
        // Signals are caught before the server starts, so one sent as soon as the first line is
        // read still stops it cleanly.
        let (signals, caught) = AsyncStream.makeStream(of: Int32.self)
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { caught.yield(number) }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }

        let directory = directory
        if let error = Blocking.run({ () async throws in
            let port = try await server.start()
            Self.announce(directory: directory, server: server, port: port)
            for await _ in signals { break }
            await server.stop()
        }) {
            throw UserFailure.reporting("hybrid serve: " + explained(error))
        }
    }

    /// The server's error, said plainly when the port is taken: the socket layer's own words
    /// (`bind(descriptor:ptr:bytes:): Address already in use (errno: 98)`) name no way out.
    private func explained(_ error: any Error) -> String {
        guard "\(error)".contains(String(cString: strerror(EADDRINUSE))) else { return "\(error)" }
        return "port \(port) on \(host) is in use by another program; choose another with --port N, or --port 0 to pick a free one"
    }

    /// `serving DIR at http://HOST:PORT/`, then a line per bundle, written at once.
    @available(macOS 14, *)
    private static func announce(directory: String, server: BundleServer, port: Int) {
        let base = "http://\(server.options.host):\(port)"
        var lines = ["serving \(directory) at \(base)/"]
        let (bundles, problems) = server.bundles()
        for bundle in bundles {
            let location = bundle.archivePath.map { base + $0 } ?? "development: " + base + bundle.folderPath
            lines.append("  \(bundle.name)  \(bundle.app) \(bundle.version)  \(location)")
        }
        FileHandleOutput.standardOutput(Array((lines.joined(separator: "\n") + "\n").utf8))
        for problem in problems { FileHandleOutput.standardError("hybrid serve: left out: \(problem)") }
        if bundles.isEmpty && problems.isEmpty {
            FileHandleOutput.standardError("hybrid serve: \(directory) holds no bundles yet (NAME.hbundle files or NAME/ folders with manifest.json)")
        }
    }
}
