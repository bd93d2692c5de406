import Foundation
import HybridBundles
import TestSupport
import XCTest

/// Opening bundle folders built on disk for each test.
final class BundleFolderTests: XCTestCase {
    private var folder: URL!
    private var outside: URL!

    override func setUpWithError() throws {
        let base = try makeTemporaryDirectory("bundle-tests")
        folder = base.appendingPathComponent("shop")
        outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    }

    private func write(_ relative: String, _ text: String = "{}") throws {
        let url = folder.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private let manifest = """
    {
      "app": "shop",
      "version": "1.4.2",
      "entry": "main.js",
      "start": "home",
      "screens": { "home": "screens/home.json", "detail": "screens/detail.json" },
      "patches": ["patches/discount.js"]
    }
    """

    private func writeHappyBundle() throws {
        try write("manifest.json", manifest)
        try write("main.js", "hybrid.ready()")
        try write("screens/home.json")
        try write("screens/detail.json")
        try write("patches/discount.js", "")
    }

    func testOpensAHappyBundle() throws {
        try writeHappyBundle()
        let load = BundleFolder.open(folder.path)
        XCTAssertEqual(load.formattedDiagnostics, [])
        let bundle = try XCTUnwrap(load.value)
        XCTAssertEqual(bundle.manifest.app, "shop")
        XCTAssertEqual(bundle.manifest.version, SemanticVersion("1.4.2"))
        XCTAssertFalse(bundle.isSigned)
        XCTAssertEqual(bundle.path, folder.path)
        XCTAssertEqual(bundle.root.path, URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path)
        XCTAssertEqual(bundle.screenPath(named: "home"), folder.path + "/screens/home.json")
        XCTAssertNil(bundle.screenPath(named: "cart"))
        XCTAssertEqual(bundle.url(for: "main.js"), bundle.root.appendingPathComponent("main.js"))
        XCTAssertEqual(bundle.filePath(for: "patches/discount.js"), folder.path + "/patches/discount.js")
        XCTAssertNil(bundle.url(for: "../outside/x.js"))
        XCTAssertNil(bundle.url(for: "/etc/passwd"))
        XCTAssertNil(bundle.filePath(for: "a\\b.js"))
    }

    func testSignatureFileMakesItSigned() throws {
        try writeHappyBundle()
        try write("manifest.sig", #"{"keyId": "k", "alg": "ed25519", "sig": ""}"#)
        XCTAssertEqual(BundleFolder.open(folder.path).value?.isSigned, true)
    }

    func testMissingScreenFileIsLocatedAtItsPath() throws {
        try writeHappyBundle()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("screens/detail.json"))
        let load = BundleFolder.open(folder.path)
        XCTAssertNil(load.value)
        XCTAssertEqual(load.formattedDiagnostics, [
            "\(folder.path)/manifest.json:6:55: $.screens.detail: file \"screens/detail.json\" does not exist in the bundle folder",
        ])
    }

    func testSymbolicLinkLeavingTheFolderIsRefused() throws {
        try writeHappyBundle()
        let secret = outside.appendingPathComponent("secret.js")
        try Data("steal()".utf8).write(to: secret)
        let link = folder.appendingPathComponent("patches/discount.js")
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../../outside/secret.js")
        let resolved = URL(fileURLWithPath: secret.path).resolvingSymlinksInPath().path
        let load = BundleFolder.open(folder.path)
        XCTAssertNil(load.value)
        XCTAssertEqual(load.formattedDiagnostics, [
            "\(folder.path)/manifest.json:7:15: $.patches[0]: \"patches/discount.js\" leaves the bundle folder through a symbolic link (to \"\(resolved)\")",
        ])
    }

    func testSymbolicLinkedFolderLeavingTheBundleIsRefused() throws {
        try writeHappyBundle()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("screens"))
        try Data("{}".utf8).write(to: outside.appendingPathComponent("home.json"))
        try Data("{}".utf8).write(to: outside.appendingPathComponent("detail.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("screens").path, withDestinationPath: outside.path)
        let load = BundleFolder.open(folder.path)
        XCTAssertEqual(load.diagnostics.map(\.path), ["$.screens.home", "$.screens.detail"])
        XCTAssertTrue(load.diagnostics.allSatisfy { $0.message.contains("leaves the bundle folder through a symbolic link") })
    }

    func testLinksInsideTheFolderAreFine() throws {
        try writeHappyBundle()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("main.js"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("main.js").path, withDestinationPath: "patches/discount.js")
        XCTAssertEqual(BundleFolder.open(folder.path).formattedDiagnostics, [])
    }

    func testDanglingLinkAndFolderInsteadOfFile() throws {
        try writeHappyBundle()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("main.js"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("main.js").path, withDestinationPath: "gone.js")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("screens/home.json"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("screens/home.json"), withIntermediateDirectories: true)
        XCTAssertEqual(BundleFolder.open(folder.path).formattedDiagnostics, [
            "\(folder.path)/manifest.json:4:12: $.entry: \"main.js\" is a symbolic link to \"gone.js\", which does not exist",
            "\(folder.path)/manifest.json:6:24: $.screens.home: \"screens/home.json\" is a folder; expected a file",
        ])
    }

    func testManifestProblemsAndMissingFilesTogether() throws {
        try write("manifest.json", """
        {"app": "shop", "version": "1.0", "start": "home", "screens": {"home": "home.json"},
         "files": {"main.js": {"sha256": "\(String(repeating: "0", count: 64))", "size": 0}}}
        """)
        XCTAssertEqual(BundleFolder.open(folder.path + "/").formattedDiagnostics, [
            "\(folder.path)/manifest.json:1:28: $.version: invalid version \"1.0\": expected MAJOR.MINOR.PATCH with an optional -prerelease, like \"1.4.2\" or \"2.0.0-beta.1\"",
            "\(folder.path)/manifest.json:1:72: $.screens.home: file \"home.json\" does not exist in the bundle folder",
            "\(folder.path)/manifest.json:2:12: $.files[\"main.js\"]: file \"main.js\" does not exist in the bundle folder",
        ])
    }

    func testFolderProblems() throws {
        let missing = folder.appendingPathComponent("nope").path
        XCTAssertEqual(BundleFolder.open(missing).formattedDiagnostics, ["\(missing)/manifest.json:1:1: $: no bundle folder at \"\(missing)\""])
        try write("plain.txt", "x")
        let file = folder.appendingPathComponent("plain.txt").path
        XCTAssertEqual(BundleFolder.open(file).formattedDiagnostics, ["\(file)/manifest.json:1:1: $: \"\(file)\" is not a folder; a bundle folder holds manifest.json"])
        XCTAssertEqual(BundleFolder.open(folder.path).formattedDiagnostics, ["\(folder.path)/manifest.json:1:1: $: the bundle folder has no manifest.json"])
        XCTAssertNil(BundleFolder.open(folder.path).value)
    }
}
