import Foundation
import HybridBundles
import HybridFiles
import Hummingbird
import Logging

/// `hybrid serve DIR`: serves the bundles of a folder over HTTP, so hosts can download signed
/// bundles and developers can run folders live, reloading as files change (SPEC §6).
///
/// The bundles are `DIR/NAME.hbundle` files and `DIR/NAME/` folders holding `manifest.json`
/// (when both exist, the `.hbundle` serves the archive and the manifest). The URLs:
///
/// - `GET /` — `{"bundles": [{"name", "app", "version", "signed", "archive": "/NAME.hbundle" | null}]}`;
/// - `GET /NAME.hbundle` — the archive (`application/zip`): the file as is, or a signed folder
///   zipped the way `hybrid bundle pack` zips it (built again when the folder changes); an
///   unsigned folder has none (404, pointing at its development URL);
/// - `GET /NAME/manifest.json`, `/NAME/manifest.sig` — those files' exact bytes;
/// - folders only: `GET /NAME/.files` — `{"generation": G, "files": {PATH: {"size", "sha256"}}}`;
///   `GET /NAME/.changes?since=G` — `{"generation": G2}` once the generation passes `G`, or
///   after `changesTimeout` as it is; `GET /NAME/PATH` — a file of the folder, never through a
///   symbolic link or outside it.
///
/// A folder's generation starts at 1 and grows by one whenever a poll of its listing (every
/// `pollInterval`) finds a file added, removed or modified. Each request is logged at info.
@available(macOS 14, iOS 17, tvOS 17, *)
public final class BundleServer: Sendable {
    /// Where and how to serve.
    public struct Options: Sendable {
        /// The address to listen on; loopback by default.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one (`start` returns it).
        public var port = 8080
        /// How long a `.changes` long poll waits for a change before answering.
        public var changesTimeout: Duration = .seconds(20)
        /// How often every bundle folder's listing is taken to spot changes.
        public var pollInterval: Duration = .milliseconds(150)

        public init(host: String = "127.0.0.1", port: Int = 8080) {
            self.host = host
            self.port = port
        }
    }

    /// The served folder as given.
    public let path: String
    /// How it is served.
    public let options: Options
    private let directory: BundleDirectory
    private let watch = FolderWatch()
    private let logger: Logger
    private let address: Locked<String>
    private let running = Locked<Running?>(nil)
    /// Set from `start` until `stop` is done, so the server starts once at a time.
    private let isStarted = Locked(false)
    /// Closes the listening socket, set once the server listens.
    private let closeListener = Locked<(@Sendable () async -> Void)?>(nil)

    private struct Running {
        var server: Task<Void, Never>
        var poller: Task<Void, Never>
        var scratch: String
    }

    /// A server for the bundles in `path`, which must be a folder; nothing listens until `start`.
    public init(path: String, options: Options = Options(), logger: Logger = Logger(label: "hybrid.serve")) throws(ServeError) {
        guard BundleDirectory.isFolder(path) else {
            throw ServeError("\(path): " + (FileManager.default.fileExists(atPath: path) ? "not a folder" : "no such folder"))
        }
        self.path = path
        self.options = options
        self.directory = BundleDirectory(root: URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
        self.logger = logger
        self.address = Locked("\(options.host):\(options.port)")
    }

    /// The bundles as `GET /` lists them, and why any bundle was left out (a damaged archive, a
    /// manifest without `app` and `version`), one line each.
    public func bundles() -> (bundles: [ServedBundle], problems: [String]) {
        directory.bundles()
    }

    /// Starts listening and watching the folders; returns the port (the real one for port 0).
    /// Throws when the address cannot be bound or the server is already running.
    public func start() async throws -> Int {
        guard isStarted.withLock({ isStarted in
            defer { isStarted = true }
            return !isStarted
        }) else {
            throw ServeError("\(path): the server is already running")
        }
        watch.open()
        let scratch = FileSystem.join(NSTemporaryDirectory(), "hybrid-serve-\(getpid())-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        } catch {
            isStarted.withLock { $0 = false }
            throw ServeError("cannot create a temporary folder for archives: \(error.localizedDescription)")
        }
        let responder = ServeResponder(directory: directory, watch: watch, changesTimeout: options.changesTimeout,
                                       scratch: scratch, address: address, logger: logger)
        let (events, started) = AsyncStream.makeStream(of: Result<Int, any Error>.self)
        let application = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(options.host, port: options.port)),
            onServerRunning: { [closeListener] channel in
                closeListener.withLock { $0 = { try? await channel.close().get() } }
                started.yield(.success(channel.localAddress?.port ?? 0))
            },
            logger: logger
        )
        let server = Task {
            do {
                try await application.run()
                started.yield(.failure(ServeError("the server stopped before it listened")))
            } catch {
                started.yield(.failure(error))
            }
            started.finish()
        }
        let poller = Task { [watch, directory, options] in
            while !Task.isCancelled {
                for name in directory.folderNames() { watch.refresh(name, at: directory.root + "/" + name) }
                try? await Task.sleep(for: options.pollInterval)
            }
        }
        running.withLock { $0 = Running(server: server, poller: poller, scratch: scratch) }
        for await event in events {
            switch event {
            case .success(let port):
                address.withLock { $0 = "\(options.host):\(port)" }
                return port
            case .failure(let error):
                await stop()
                throw ServeError("cannot serve at \(options.host):\(options.port): \(error)")
            }
        }
        await stop()
        throw ServeError("cannot serve at \(options.host):\(options.port)")
    }

    /// How many `.changes` long polls are waiting (for tests).
    var waitingPolls: Int { watch.waitingCount }

    /// Stops: pending `.changes` polls answer at once, connections close, the watch stops.
    /// Returns once the server has shut down.
    public func stop() async {
        guard let stopping = running.withLock({ running -> Running? in
            defer { running = nil }
            return running
        }) else { return }
        watch.close()
        stopping.poller.cancel()
        // Closing the listener first ends the server's accept loop quietly; cancelling then
        // closes the connections still open (kept alive by clients).
        let close = closeListener.withLock { close in
            defer { close = nil }
            return close
        }
        await close?()
        stopping.server.cancel()
        await stopping.server.value
        await stopping.poller.value
        try? FileManager.default.removeItem(atPath: stopping.scratch)
        isStarted.withLock { $0 = false }
    }
}
