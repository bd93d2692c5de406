import Foundation
import HybridBundles
import HybridEventLoop
import HybridRuntime
import HybridTerminal
import TestSupport
import XCTest

/// Bundles downloaded over real HTTP on loopback (SPEC §5): every bad offer is refused with a
/// reason, and the version installed before keeps running, intact.
final class DeploymentTests: XCTestCase {
    var base: URL!
    let key = BundleKey()
    var server: LoopbackHTTPServer!
    let routes = Routes()
    var cache: BundleCache { BundleCache(root: base.appendingPathComponent("cache").path) }
    var url: URL { URL(string: "http://127.0.0.1:\(server.port)/shop.hbundle")! }

    /// What the server answers, by path; tests change it between launches.
    final class Routes: @unchecked Sendable {
        private let lock = NSLock()
        private var responses: [String: LoopbackHTTPServer.Response] = [:]
        private var counts: [String: Int] = [:]

        subscript(path: String) -> LoopbackHTTPServer.Response? {
            get { lock.withLock { responses[path] } }
            set { lock.withLock { responses[path] = newValue } }
        }

        func answer(_ path: String) -> LoopbackHTTPServer.Response {
            lock.withLock {
                counts[path, default: 0] += 1
                return responses[path] ?? LoopbackHTTPServer.Response(status: 404, body: "not found")
            }
        }

        func count(_ path: String) -> Int { lock.withLock { counts[path] ?? 0 } }
    }

    /// A signed bundle's three served files.
    struct Offer {
        var archive: [UInt8]
        var manifest: [UInt8]
        var signature: [UInt8]
    }

    override func setUpWithError() throws {
        base = try makeTemporaryDirectory("deployment")
        let routes = routes
        server = try LoopbackHTTPServer { routes.answer($0.path) }
    }

    override func tearDownWithError() throws {
        server.stop()
    }

    // MARK: Fixtures

    /// A bundle folder of `app` whose start screen says `v<version>`, signed by `signer`.
    func makeBundle(_ version: String, app: String = "shop", script: String = "hybrid.ready();\n", signer: BundleKey? = nil,
                    edit: ((String) throws -> Void)? = nil) throws -> (folder: String, offer: Offer) {
        let folder = base.appendingPathComponent("src-\(version)-\(UUID().uuidString)").path
        let files = [
            "manifest.json": #"{"app": "\#(app)", "version": "\#(version)", "entry": "main.js", "start": "home", "screens": {"home": "screens/home.json"}}"#,
            "main.js": script,
            "screens/home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "v\#(version)"}}"#,
        ]
        for (path, text) in files {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let archive = folder + ".hbundle"
        let result = try BundleSigner(key: signer ?? key).pack(folder: folder)
        try BundleSigner.writeArchive(ofSignedFolder: folder, to: archive)
        try edit?(folder)
        let offer = Offer(archive: try bytes(archive), manifest: result.manifestBytes, signature: try bytes(folder + "/manifest.sig"))
        return (folder, offer)
    }

    /// The folder's signed files zipped as they are now (after an edit), without signing again.
    func zipAsIs(_ folder: String, extra: [CraftedArchive.Entry] = []) throws -> [UInt8] {
        let path = folder + "-as-is.hbundle"
        var entries: [CraftedArchive.Entry] = []
        for name in ["manifest.json", "manifest.sig", "main.js", "screens/home.json"] {
            entries.append(.file(name, try bytes(folder + "/" + name)))
        }
        try CraftedArchive.write(at: path, entries + extra)
        return try bytes(path)
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    func serve(_ offer: Offer, withManifest: Bool = true) {
        routes["/shop.hbundle"] = .init(status: 200, bytes: offer.archive)
        routes["/shop/manifest.json"] = withManifest ? .init(status: 200, bytes: offer.manifest) : nil
        routes["/shop/manifest.sig"] = withManifest ? .init(status: 200, bytes: offer.signature) : nil
    }

    /// Starts the app from the URL as `hybrid run URL` does; returns its frame and problems.
    func launch(readyTimeout: Double = 0.3, downloadTimeout: Double = 3) async throws -> (frame: String, problems: [String]) {
        let app = HybridApp(loop: EventLoop(clock: .manual(ManualClock())))
        app.size = TerminalSize(columns: 30, rows: 3)
        let problems = Problems()
        app.onProblem = { problems.lines.append($0) }
        app.trustedKeys = [key.publicKey]
        app.bundleCache = cache
        app.readyTimeout = readyTimeout
        app.downloadTimeout = downloadTimeout
        do {
            try await app.load(bundle: .url(url))
        } catch {
            problems.lines.append("load failed: \(error)")
            return ("", problems.lines)
        }
        let frame = HeadlessDriver.run(app, keys: try KeyScript(parsing: "")).plainLines().joined(separator: "\n")
        return (frame, problems.lines)
    }

    final class Problems: @unchecked Sendable {
        var lines: [String] = []
    }

    /// Installs and runs 1.0.0, the version every refusal must leave intact.
    func installFirstVersion() async throws {
        serve(try makeBundle("1.0.0").offer)
        let (frame, _) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.0.0"), frame)
    }

    /// 1.0.0 still runs, its folder verifies, and `refused` names no installed folder.
    func assertFirstVersionIntact(after problems: [String], mentioning expected: String, refused: String? = "1.1.0",
                                  file: StaticString = #filePath, line: UInt = #line) async throws {
        XCTAssertTrue(problems.contains { $0.contains(expected) }, "expected a problem with \"\(expected)\" in \(problems)", file: file, line: line)
        let installed = cache.folder(of: "shop") + "/1.0.0"
        XCTAssertNoThrow(try BundleVerifier(trustedKeys: [key.publicKey]).verifyFolder(installed), file: file, line: line)
        if let refused {
            XCTAssertFalse(FileManager.default.fileExists(atPath: cache.folder(of: "shop") + "/" + refused), file: file, line: line)
        }
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: cache.stagingFolder)) ?? []
        XCTAssertEqual(leftovers, [], "staging leftovers", file: file, line: line)
        routes["/shop/manifest.json"] = nil
        routes["/shop.hbundle"] = nil
        let (frame, _) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.0.0"), frame, file: file, line: line)
    }

    // MARK: Installing

    func testDownloadsInstallsAndRunsAVersion() async throws {
        try await installFirstVersion()
        XCTAssertEqual(cache.installedVersions(of: "shop").map(\.version.description), ["1.0.0"])
        XCTAssertEqual(cache.bootRecord(of: "shop").versions["1.0.0"]?.state, .healthy)
        serve(try makeBundle("1.1.0").offer)
        let (frame, problems) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.1.0"), frame)
        XCTAssertEqual(problems, [])
        // The previous version is kept to fall back on.
        XCTAssertEqual(cache.installedVersions(of: "shop").map(\.version.description), ["1.1.0", "1.0.0"])
    }

    func testTamperedFileIsRefused() async throws {
        try await installFirstVersion()
        let (folder, _) = try makeBundle("1.1.0") { folder in
            try Data(#"{"format": 1, "id": "home", "body": {"type": "text", "text": "v6.6.6"}}"#.utf8).write(to: URL(fileURLWithPath: folder + "/screens/home.json"))
        }
        let offer = Offer(archive: try zipAsIs(folder), manifest: try bytes(folder + "/manifest.json"), signature: try bytes(folder + "/manifest.sig"))
        serve(offer)
        let (frame, problems) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.0.0"), frame)
        try await assertFirstVersionIntact(after: problems, mentioning: "screens/home.json: SHA-256")
    }

    func testTamperedManifestIsRefused() async throws {
        try await installFirstVersion()
        let (folder, _) = try makeBundle("1.1.0") { folder in
            let path = folder + "/manifest.json"
            let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"start\"", with: "\"start\" ")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        // Served beside the archive, it is refused before the archive is fetched; inside the
        // archive alone, it is refused all the same.
        let offer = Offer(archive: try zipAsIs(folder), manifest: try bytes(folder + "/manifest.json"), signature: try bytes(folder + "/manifest.sig"))
        serve(offer)
        let (_, problems) = try await launch()
        XCTAssertEqual(routes.count("/shop.hbundle"), 1, "only 1.0.0's archive was downloaded")
        try await assertFirstVersionIntact(after: problems, mentioning: "manifest.sig: the signature does not match")
        serve(offer, withManifest: false)
        let (_, again) = try await launch()
        try await assertFirstVersionIntact(after: again, mentioning: "manifest.sig: the signature does not match")
    }

    func testUntrustedKeyIsRefused() async throws {
        try await installFirstVersion()
        serve(try makeBundle("1.1.0", signer: BundleKey()).offer)
        let (_, problems) = try await launch()
        try await assertFirstVersionIntact(after: problems, mentioning: "which is not trusted")
    }

    func testOlderVersionIsRefused() async throws {
        try await installFirstVersion()
        serve(try makeBundle("0.9.0").offer)
        let (_, problems) = try await launch()
        try await assertFirstVersionIntact(after: problems, mentioning: "0.9.0 is older than the installed 1.0.0", refused: "0.9.0")
    }

    func testSameVersionWithOtherContentIsRefused() async throws {
        try await installFirstVersion()
        serve(try makeBundle("1.0.0", script: "hybrid.ready(); // changed\n").offer)
        let (_, problems) = try await launch()
        try await assertFirstVersionIntact(after: problems, mentioning: "1.0.0 is already installed with other content", refused: nil)
    }

    func testSameVersionAgainIsNotAProblem() async throws {
        try await installFirstVersion()
        let (frame, problems) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.0.0"), frame)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(routes.count("/shop.hbundle"), 1, "the manifest showed it was installed; the archive was not fetched again")
    }

    func testPathTraversalInArchiveIsRefused() async throws {
        try await installFirstVersion()
        let (folder, offer) = try makeBundle("1.1.0")
        serve(Offer(archive: try zipAsIs(folder, extra: [.file("../escape.js", Array("x".utf8))]), manifest: offer.manifest, signature: offer.signature))
        let (_, problems) = try await launch()
        try await assertFirstVersionIntact(after: problems, mentioning: "../escape.js")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.root + "/escape.js"))
    }

    func testSymbolicLinkInArchiveIsRefused() async throws {
        try await installFirstVersion()
        let (folder, offer) = try makeBundle("1.1.0")
        serve(Offer(archive: try zipAsIs(folder, extra: [.link("link.js", target: "/etc/passwd")]), manifest: offer.manifest, signature: offer.signature))
        let (_, problems) = try await launch()
        try await assertFirstVersionIntact(after: problems, mentioning: "link.js: is a symbolic link")
    }

    func testTruncatedDownloadIsRefused() async throws {
        try await installFirstVersion()
        let offer = try makeBundle("1.1.0").offer
        serve(offer)
        routes["/shop.hbundle"] = .init(status: 200, bytes: Array(offer.archive.prefix(offer.archive.count / 2)), announcedLength: offer.archive.count)
        let (_, problems) = try await launch()
        try await assertFirstVersionIntact(after: problems, mentioning: "truncated")
    }

    func testOversizedResponseIsCutOff() async throws {
        try await installFirstVersion()
        let offer = try makeBundle("1.1.0").offer
        serve(offer)
        // Endless, with no length announced: cut off at the cap the manifest's files allow.
        routes["/shop.hbundle"] = .init(status: 200, bytes: [UInt8](repeating: 0x41, count: 64 << 10), isEndless: true)
        let (_, problems) = try await launch()
        try await assertFirstVersionIntact(after: problems, mentioning: "sent more than the")
        // Announcing too much is refused before the body.
        serve(offer)
        routes["/shop.hbundle"] = .init(status: 200, bytes: offer.archive, announcedLength: 1 << 30)
        let (_, again) = try await launch()
        try await assertFirstVersionIntact(after: again, mentioning: "announces 1073741824 bytes")
    }

    // MARK: Boot safety

    func assertMarkedBad(_ problems: [String], reason: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        XCTAssertTrue(problems.contains { $0.contains("shop 1.1.0 is marked bad") && $0.contains(reason) }, "\(problems)", file: file, line: line)
        XCTAssertEqual(cache.bootRecord(of: "shop").versions["1.1.0"]?.state, .bad, file: file, line: line)
        try await assertFirstVersionIntact(after: problems, mentioning: "marked bad")
    }

    func testVersionThrowingAtStartIsMarkedBadAndThePreviousRuns() async throws {
        try await installFirstVersion()
        serve(try makeBundle("1.1.0", script: "throw new Error('boom at start');\n").offer)
        let (frame, problems) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.0.0"), "the previous version runs in the same session: \(frame)")
        try await assertMarkedBad(problems, reason: "boom at start")
    }

    func testVersionNeverReadyIsMarkedBad() async throws {
        try await installFirstVersion()
        serve(try makeBundle("1.1.0", script: "// forgets hybrid.ready()\n").offer)
        let (frame, problems) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.0.0"), frame)
        try await assertMarkedBad(problems, reason: "did not call hybrid.ready() within")
    }

    func testVersionFailingAfterAnAwaitBeforeReadyIsMarkedBad() async throws {
        try await installFirstVersion()
        serve(try makeBundle("1.1.0", script: "setTimeout(() => { throw new Error('late boom'); }, 10);\n").offer)
        let (frame, problems) = try await launch(readyTimeout: 3)
        XCTAssertTrue(frame.hasPrefix("v1.0.0"), frame)
        try await assertMarkedBad(problems, reason: "late boom")
    }

    func testRunawayVersionIsMarkedBad() async throws {
        try await installFirstVersion()
        serve(try makeBundle("1.1.0", script: "while (true) {}\n").offer)
        let (frame, problems) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.0.0"), frame)
        try await assertMarkedBad(problems, reason: "ran longer than")
    }

    func testBadVersionOfferedAgainIsNeitherDownloadedNorRun() async throws {
        try await installFirstVersion()
        serve(try makeBundle("1.1.0", script: "throw new Error('boom');\n").offer)
        _ = try await launch()
        let downloads = routes.count("/shop.hbundle")
        let (frame, problems) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.0.0"), frame)
        XCTAssertEqual(routes.count("/shop.hbundle"), downloads, "a bad version is refused from its manifest")
        XCTAssertTrue(problems.contains { $0.contains("failed to start before") && $0.contains("never launched again") }, "\(problems)")
        // Even served without a manifest (so the archive is fetched), it is refused.
        serve(try makeBundle("1.1.0", script: "throw new Error('boom');\n").offer, withManifest: false)
        let (_, again) = try await launch()
        XCTAssertTrue(again.contains { $0.contains("never launched again") }, "\(again)")
    }

    func testStartInterruptedLastTimeCountsAsAFailure() async throws {
        try await installFirstVersion()
        serve(try makeBundle("1.1.0").offer)
        // What a crash in the middle of 1.1.0's first start leaves behind.
        _ = try await BundleInstaller(cache: cache, trustedKeys: [key.publicKey]).install(from: url)
        try cache.record(.trying, version: SemanticVersion("1.1.0")!, of: "shop")
        let (frame, problems) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.0.0"), frame)
        try await assertMarkedBad(problems, reason: "its last start never finished")
    }

    // MARK: Network trouble

    func testOfflineStartRunsWhatIsInstalled() async throws {
        try await installFirstVersion()
        server.stop()
        let (frame, problems) = try await launch()
        XCTAssertTrue(frame.hasPrefix("v1.0.0"), frame)
        XCTAssertTrue(problems.contains { $0.contains(url.absoluteString) && $0.contains("download failed") }, "\(problems)")
    }

    func testNothingInstalledAndOfflineIsAnError() async throws {
        server.stop()
        let (_, problems) = try await launch()
        XCTAssertTrue(problems.contains { $0.contains("load failed") && $0.contains("nothing of it is installed") }, "\(problems)")
    }

    func testTwoInstallsRacing() async throws {
        try await installFirstVersion()
        serve(try makeBundle("1.1.0").offer)
        let installer = BundleInstaller(cache: cache, trustedKeys: [key.publicKey])
        let url = url
        async let first = installer.install(from: url)
        async let second = installer.install(from: url)
        async let third = installer.install(from: url)
        let outcomes = try await [first, second, third]
        XCTAssertEqual(outcomes.filter { if case .installed = $0 { return true } else { return false } }.count, 1, "\(outcomes)")
        XCTAssertEqual(Set(outcomes.map(\.bundle.path)).count, 1)
        XCTAssertEqual(cache.installedVersions(of: "shop").map(\.version.description), ["1.1.0", "1.0.0"])
        for version in ["1.0.0", "1.1.0"] {
            XCTAssertNoThrow(try BundleVerifier(trustedKeys: [key.publicKey]).verifyFolder(cache.folder(of: "shop") + "/" + version))
        }
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: cache.stagingFolder)) ?? [], [])
    }
}
