import Crypto
import Foundation
import HybridBundles
@testable import HybridServer
import XCTest

/// `BundleServer` in-process on a free loopback port, over real HTTP.
@available(macOS 14, *)
final class BundleServerTests: XCTestCase {
    private var fixture: ServerFixture!

    override func setUpWithError() throws {
        fixture = try ServerFixture()
    }

    override func tearDown() async throws {
        await fixture.stop()
        fixture = nil
    }

    // MARK: The index

    func testIndexListsFoldersAndArchivesWithTheArchiveWinning() async throws {
        try fixture.makeFolder("dev", app: "shop", version: "0.1.0")
        try fixture.makeSignedFolder("signed")
        // A signed folder packed under another name, then a folder of the archive's name whose
        // manifest says something else: the archive wins.
        try fixture.makeSignedFolder("source", archive: "both")
        try FileManager.default.removeItem(at: fixture.folder.appendingPathComponent("source"))
        try fixture.makeFolder("both", app: "other", version: "9.9.9")
        // Not bundles: hidden, no manifest, a manifest without app.
        try fixture.makeFolder(".hidden")
        try FileManager.default.createDirectory(at: fixture.folder.appendingPathComponent("notes"), withIntermediateDirectories: true)
        let broken = try fixture.makeFolder("broken")
        try fixture.write(#"{"version": "1.0.0"}"#, to: broken.appendingPathComponent("manifest.json"))
        try await fixture.start()

        let answer = try await fixture.get("/")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.contentType, "application/json")
        let bundles = try XCTUnwrap(try answer.json()["bundles"] as? [[String: Any]])
        XCTAssertEqual(bundles.map { $0["name"] as? String }, ["both", "dev", "signed"])
        XCTAssertEqual(bundles[0]["app"] as? String, "source")
        XCTAssertEqual(bundles[0]["version"] as? String, "1.0.0")
        XCTAssertEqual(bundles[0]["signed"] as? Bool, true)
        XCTAssertEqual(bundles[0]["archive"] as? String, "/both.hbundle")
        XCTAssertEqual(bundles[1]["app"] as? String, "shop")
        XCTAssertEqual(bundles[1]["version"] as? String, "0.1.0")
        XCTAssertEqual(bundles[1]["signed"] as? Bool, false)
        XCTAssertTrue(bundles[1]["archive"] is NSNull, "\(bundles[1])")
        XCTAssertEqual(bundles[2]["signed"] as? Bool, true)
        XCTAssertEqual(bundles[2]["archive"] as? String, "/signed.hbundle")

        let listed = fixture.server.bundles()
        XCTAssertEqual(listed.bundles.map(\.name), ["both", "dev", "signed"])
        XCTAssertEqual(listed.bundles.map(\.hasFolder), [true, true, true])
        XCTAssertEqual(listed.problems, [#"broken/manifest.json: needs "app" and "version" strings"#])
        XCTAssertEqual(fixture.log.messages(at: .info).filter { $0.hasPrefix("GET") }, ["GET / 200"])
    }

    // MARK: Archives

    func testSignedFolderIsServedAsTheArchivePackWrites() async throws {
        let signed = try fixture.makeSignedFolder("signed", archive: "reference")
        let reference = try Data(contentsOf: fixture.folder.appendingPathComponent("reference.hbundle"))
        try FileManager.default.removeItem(at: fixture.folder.appendingPathComponent("reference.hbundle"))
        try await fixture.start()

        let answer = try await fixture.get("/signed.hbundle")
        XCTAssertEqual(answer.status, 200, answer.text)
        XCTAssertEqual(answer.contentType, "application/zip")
        XCTAssertEqual(answer.contentLength, String(answer.body.count))
        XCTAssertEqual(answer.body, reference, "the same bytes as `hybrid bundle pack --out`")
        let verified = try verify(answer.body)
        XCTAssertEqual(verified.manifest.app, "signed")
        XCTAssertEqual(verified.keyId, fixture.key.keyId)

        // Changed after signing: the archive is built again, and no longer verifies.
        try fixture.write("hybrid.ready(); // edited\n", to: signed.appendingPathComponent("main.js"))
        let changed = try await fixture.get("/signed.hbundle")
        XCTAssertEqual(changed.status, 200)
        XCTAssertNotEqual(changed.body, reference)
        XCTAssertThrowsError(try verify(changed.body)) { error in
            XCTAssertEqual((error as? BundleError)?.file, "main.js", "\(error)")
        }
    }

    func testArchiveFileIsServedAsIsWithItsManifestReadFromIt() async throws {
        let signed = try fixture.makeSignedFolder("source", archive: "packed")
        let manifest = try Data(contentsOf: signed.appendingPathComponent("manifest.json"))
        let signature = try Data(contentsOf: signed.appendingPathComponent("manifest.sig"))
        try FileManager.default.removeItem(at: signed)
        let file = try Data(contentsOf: fixture.folder.appendingPathComponent("packed.hbundle"))
        try await fixture.start()

        let archive = try await fixture.get("/packed.hbundle")
        XCTAssertEqual(archive.status, 200)
        XCTAssertEqual(archive.contentType, "application/zip")
        XCTAssertEqual(archive.contentLength, String(file.count))
        XCTAssertEqual(archive.body, file)
        XCTAssertNoThrow(try verify(archive.body))

        let manifestAnswer = try await fixture.get("/packed/manifest.json")
        XCTAssertEqual(manifestAnswer.status, 200)
        XCTAssertEqual(manifestAnswer.contentType, "application/json")
        XCTAssertEqual(manifestAnswer.body, manifest)
        let signatureAnswer = try await fixture.get("/packed/manifest.sig")
        XCTAssertEqual(signatureAnswer.status, 200)
        XCTAssertEqual(signatureAnswer.body, signature)

        // An archive has no development endpoints.
        for path in ["/packed/.files", "/packed/.changes?since=1", "/packed/main.js"] {
            try await fixture.expect(path, 404, saying: "archive")
        }
    }

    func testArchiveWinsOverAFolderOfTheSameName() async throws {
        try fixture.makeSignedFolder("source", archive: "both")
        let packedManifest = try Data(contentsOf: fixture.folder.appendingPathComponent("source/manifest.json"))
        let folder = try fixture.makeFolder("both", app: "other")
        try await fixture.start()

        let manifest = try await fixture.get("/both/manifest.json")
        XCTAssertEqual(manifest.body, packedManifest)
        let signature = try await fixture.get("/both/manifest.sig")
        XCTAssertEqual(signature.status, 200, "from the archive; the folder has none")
        let archive = try await fixture.get("/both.hbundle")
        XCTAssertEqual(archive.body, try Data(contentsOf: fixture.folder.appendingPathComponent("both.hbundle")))
        // The folder's development endpoints still work.
        let script = try await fixture.get("/both/main.js")
        XCTAssertEqual(script.body, try Data(contentsOf: folder.appendingPathComponent("main.js")))
    }

    func testUnsignedFolderHasNoArchive() async throws {
        try fixture.makeFolder("dev")
        try await fixture.start()
        let answer = try await fixture.expect("/dev.hbundle", 404, saying: "development mode at http://127.0.0.1:\(fixture.port)/dev/")
        XCTAssertEqual(answer.contentType, "text/plain; charset=utf-8")
        XCTAssertTrue(answer.text.contains("unsigned"), answer.text)
        try await fixture.expect("/nothing.hbundle", 404, saying: "no such bundle")
    }

    // MARK: Manifests and files of folders

    func testManifestEndpointsOfFolders() async throws {
        let dev = try fixture.makeFolder("dev")
        let signed = try fixture.makeSignedFolder("signed")
        try await fixture.start()

        let manifest = try await fixture.expect("/dev/manifest.json", 200)
        XCTAssertEqual(manifest.body, try Data(contentsOf: dev.appendingPathComponent("manifest.json")))
        try await fixture.expect("/dev/manifest.sig", 404, saying: "manifest.sig")
        let signature = try await fixture.expect("/signed/manifest.sig", 200)
        XCTAssertEqual(signature.body, try Data(contentsOf: signed.appendingPathComponent("manifest.sig")))
        try await fixture.expect("/nothing/manifest.json", 404, saying: "no such bundle")

        let screen = try await fixture.expect("/dev/screens/home.json", 200)
        XCTAssertEqual(screen.contentType, "application/json")
        XCTAssertEqual(screen.body, try Data(contentsOf: dev.appendingPathComponent("screens/home.json")))
        let script = try await fixture.get("/dev/main.js")
        XCTAssertEqual(script.contentType, "text/javascript")
        try fixture.write("x", to: dev.appendingPathComponent("notes.txt"))
        let other = try await fixture.get("/dev/notes.txt")
        XCTAssertEqual(other.contentType, "application/octet-stream")
        try await fixture.expect("/dev/screens/none.json", 404, saying: "does not exist")
    }

    func testFilesListsEveryRegularFileButDotFilesAndLinks() async throws {
        let dev = try fixture.makeFolder("dev")
        try fixture.write("swap", to: dev.appendingPathComponent(".main.js.swp"))
        try FileManager.default.createDirectory(at: dev.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try fixture.write("git", to: dev.appendingPathComponent(".git/config"))
        try FileManager.default.createSymbolicLink(atPath: dev.appendingPathComponent("link.js").path, withDestinationPath: "main.js")
        try await fixture.start()

        let answer = try await fixture.get("/dev/.files")
        XCTAssertEqual(answer.status, 200, answer.text)
        let json = try answer.json()
        XCTAssertEqual(json["generation"] as? Int, 1)
        let files = try XCTUnwrap(json["files"] as? [String: [String: Any]])
        XCTAssertEqual(files.keys.sorted(), ["main.js", "manifest.json", "screens/home.json"])
        for (path, entry) in files {
            let bytes = try Data(contentsOf: dev.appendingPathComponent(path))
            XCTAssertEqual(entry["size"] as? Int, bytes.count, path)
            XCTAssertEqual(entry["sha256"] as? String, SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined(), path)
        }
        XCTAssertTrue(answer.text.contains(#""files":{"main.js":"#), "sorted by path: \(answer.text)")
    }

    func testChangesAnswersWithABiggerGenerationAfterAnEdit() async throws {
        let dev = try fixture.makeFolder("dev")
        try await fixture.start()
        let before = try await fixture.get("/dev/.files").json()["generation"] as? Int
        let generation = try XCTUnwrap(before)

        let fixture = self.fixture!
        let poll = Task { try await fixture.get("/dev/.changes?since=\(generation)") }
        try await fixture.waitForPolls(1)
        try fixture.write(#"{"root": {"type": "text", "text": "changed"}}"#, to: dev.appendingPathComponent("screens/home.json"))
        let answer = try await poll.value
        XCTAssertEqual(answer.status, 200, answer.text)
        let after = try XCTUnwrap(try answer.json()["generation"] as? Int)
        XCTAssertGreaterThan(after, generation)

        // The listing has caught up, and a file added is a change too.
        let files = try await fixture.get("/dev/.files").json()
        XCTAssertGreaterThanOrEqual(files["generation"] as? Int ?? 0, after)
        let home = try XCTUnwrap((files["files"] as? [String: [String: Any]])?["screens/home.json"])
        XCTAssertEqual(home["size"] as? Int, 45)
        let current = try XCTUnwrap(files["generation"] as? Int)
        try fixture.write("new", to: dev.appendingPathComponent("added.txt"))
        let added = try await fixture.get("/dev/.changes?since=\(current)").json()
        XCTAssertGreaterThan(added["generation"] as? Int ?? 0, current)
    }

    func testChangesAnswersTheSameGenerationWhenNothingChanges() async throws {
        try fixture.makeFolder("dev")
        try await fixture.start(changesTimeout: .milliseconds(200))
        let answer = try await fixture.get("/dev/.changes?since=1")
        XCTAssertEqual(try answer.json()["generation"] as? Int, 1)
        let behind = try await fixture.get("/dev/.changes?since=0")
        XCTAssertEqual(try behind.json()["generation"] as? Int, 1, "answered at once")
        try await fixture.expect("/dev/.changes?since=soon", 400, saying: "since")
    }

    func testStoppingEndsPendingLongPolls() async throws {
        try fixture.makeFolder("dev")
        try await fixture.start()
        let fixture = self.fixture!
        let poll = Task { try? await fixture.get("/dev/.changes?since=1") }
        try await fixture.waitForPolls(1)
        await fixture.stop()
        XCTAssertEqual(fixture.server.waitingPolls, 0)
        // Answered or cut off, the poll ends with the server rather than after its 20 s.
        _ = await poll.value
    }

    func testStartingTwiceOrOnABusyPortFailsAndAStoppedServerStartsAgain() async throws {
        try fixture.makeFolder("dev")
        try await fixture.start()
        let server = try XCTUnwrap(fixture.server)
        do {
            _ = try await server.start()
            XCTFail("started twice")
        } catch {
            XCTAssertTrue("\(error)".contains("already running"), "\(error)")
        }
        let busy = try BundleServer(path: fixture.folder.path, options: BundleServer.Options(host: "127.0.0.1", port: fixture.port))
        do {
            _ = try await busy.start()
            XCTFail("two servers on one port")
        } catch {
            XCTAssertTrue("\(error)".hasPrefix("cannot serve at 127.0.0.1:\(fixture.port): "), "\(error)")
        }

        await server.stop()
        let port = try await server.start()
        XCTAssertGreaterThan(port, 0)
        await server.stop()
        XCTAssertThrowsError(try BundleServer(path: fixture.folder.appendingPathComponent("dev/main.js").path)) { error in
            XCTAssertTrue("\(error)".hasSuffix("main.js: not a folder"), "\(error)")
        }
    }

    // MARK: Confinement

    func testTraversalAndLinksAreRejected() async throws {
        let dev = try fixture.makeFolder("dev")
        let outside = fixture.folder.appendingPathComponent("secret.txt")
        try fixture.write("secret", to: outside)
        try FileManager.default.createSymbolicLink(atPath: dev.appendingPathComponent("link.txt").path, withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: dev.appendingPathComponent("up").path, withDestinationPath: "..")
        try FileManager.default.createDirectory(at: dev.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try fixture.write("git", to: dev.appendingPathComponent(".git/config"))
        try await fixture.start()

        let cases: [(path: String, status: Int, says: String)] = [
            ("/dev/../secret.txt", 400, "\"..\""),
            ("/../etc/passwd", 400, "\"..\""),
            ("/dev/%2e%2e/secret.txt", 400, "\"..\""),
            ("/dev/screens/..%2f..%2fsecret.txt", 400, "\"..\""),
            ("/dev//etc/passwd", 400, "absolute"),
            ("/dev/screens\\home.json", 400, "backslash"),
            ("/dev/link.txt", 404, "symbolic link"),
            ("/dev/up/secret.txt", 404, "symbolic link"),
            ("/dev/.git/config", 404, "hidden"),
            ("/dev/screens", 404, "folder"),
        ]
        for check in cases {
            let answer = try fixture.rawGet(check.path)
            XCTAssertEqual(answer.status, check.status, "\(check.path): \(answer.body)")
            XCTAssertTrue(answer.body.contains(check.says), "\(check.path): \(answer.body)")
            XCTAssertFalse(answer.body.contains("secret\n") || answer.body == "secret", check.path)
        }
        XCTAssertEqual(try fixture.rawGet("/dev/main.js").status, 200)
    }

    // MARK: Helpers

    /// Verifies archive bytes against the fixture's key.
    private func verify(_ bytes: Data) throws -> VerifiedBundle {
        let path = fixture.folder.appendingPathComponent("check-\(UUID().uuidString).hbundle").path
        try bytes.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let verified = try BundleVerifier(trustedKeys: [fixture.key.publicKey]).verify(path)
        verified.removeStaging()
        return verified
    }
}
