import Foundation
import HybridBundles
import XCTest

/// `pack` on a folder, then `verifyFolder`, and each way a signed folder can be broken.
final class SigningFolderTests: SigningTestCase {
    func testPackListsEveryFileAndSigns() throws {
        let result = try pack()
        XCTAssertEqual(result.files, ["main.js", "screens/home.json"])
        XCTAssertEqual(result.manifest.files?["main.js"]?.size, script.utf8.count)
        XCTAssertEqual(result.manifest.files?["screens/home.json"]?.size, screen.utf8.count)
        // SHA-256 of "hybrid.ready();\n".
        XCTAssertEqual(result.manifest.files?["main.js"]?.sha256.count, 64)

        let text = try read("manifest.json")
        XCTAssertEqual(Array(text.utf8), result.manifestBytes)
        // The rest of the manifest is kept, in order, `files` added at the end.
        let order = ["$schema", "app", "version", "entry", "start", "screens", "permissions", "files"].map { text.range(of: "\"\($0)\"")!.lowerBound }
        XCTAssertEqual(order, order.sorted())
        XCTAssertTrue(text.contains("\"screens\": { \"home\": \"screens/home.json\" },"), text)
        XCTAssertTrue(text.contains("    \"main.js\": { \"sha256\": \"\(result.manifest.files!["main.js"]!.sha256)\", \"size\": \(script.utf8.count) },"), text)

        let signature = try BundleSignature(parsing: Array(try read("manifest.sig").utf8))
        XCTAssertEqual(signature.keyId, key.keyId)

        let verified = try verifier.verifyFolder(folder)
        XCTAssertEqual(verified.keyId, key.keyId)
        XCTAssertEqual(verified.manifest.app, "shop")
        XCTAssertFalse(verified.isStaged)
        XCTAssertEqual(verified.root, URL(fileURLWithPath: folder).resolvingSymlinksInPath().path)
    }

    func testPackLeavesOutKeysDotfilesAndWhatTheIgnoreFileNames() throws {
        try write("release.key", key.fileText)
        try write("renamed-key.txt", key.fileText)
        try write(".git/config", "[core]")
        try write("screens/.DS_Store", "x")
        try write(".hbundleignore", "*.draft.json\n/notes/\n")
        try write("screens/home.draft.json", "{}")
        try write("notes/todo.md", "later")
        let result = try pack()
        XCTAssertEqual(result.files, ["main.js", "screens/home.json"])
        XCTAssertEqual(result.leftOut.map(\.path), [".git/", ".hbundleignore", "notes/", "release.key", "renamed-key.txt",
                                                    "screens/.DS_Store", "screens/home.draft.json"])
        XCTAssertEqual(result.leftOut.first { $0.path == "renamed-key.txt" }?.reason, "a private key")
        // A signed folder with such files beside it still verifies: they are not the bundle's.
        XCTAssertEqual(try verifier.verifyFolder(folder).manifest.app, "shop")
    }

    func testPackingAgainGivesTheSameManifestAndReplacesStaleFiles() throws {
        let first = try pack()
        XCTAssertEqual(try pack().manifestBytes, first.manifestBytes)

        try FileManager.default.removeItem(atPath: folder + "/main.js")
        try write("main.js", "hybrid.ready(); // v2\n")
        try write("assets/logo.txt", "logo")
        let second = try pack()
        XCTAssertEqual(second.files, ["assets/logo.txt", "main.js", "screens/home.json"])
        XCTAssertNoThrow(try verifier.verifyFolder(folder))
    }

    func testTamperedFile() throws {
        try pack()
        try write("screens/home.json", screen + "  ")
        let error = bundleError { try verifier.verifyFolder(folder) }
        XCTAssertEqual(error?.description, "screens/home.json: size \(screen.utf8.count + 2) differs from the manifest's \(screen.utf8.count)")
        XCTAssertEqual(error?.kind, .sizeMismatch)

        try write("screens/home.json", screen.replacingOccurrences(of: "Hello", with: "Hellx"))
        let sameSize = bundleError { try verifier.verifyFolder(folder) }
        XCTAssertEqual(sameSize?.kind, .digestMismatch)
        XCTAssertEqual(sameSize?.file, "screens/home.json")
        XCTAssertTrue(sameSize?.message.hasPrefix("SHA-256 ") ?? false, "\(String(describing: sameSize))")
    }

    func testTamperedManifest() throws {
        try pack()
        let text = try read("manifest.json")
        try write("manifest.json", text.replacingOccurrences(of: "\"1.4.2\"", with: "\"1.4.3\""))
        let error = bundleError { try verifier.verifyFolder(folder) }
        XCTAssertEqual(error?.kind, .signatureMismatch)
        XCTAssertTrue(error?.description.hasPrefix("manifest.sig: the signature does not match manifest.json") ?? false, "\(String(describing: error))")
    }

    func testUntrustedKey() throws {
        try pack()
        let stranger = BundleKey()
        let error = bundleError { try BundleVerifier(trustedKeys: [stranger.publicKey]).verifyFolder(folder) }
        XCTAssertEqual(error?.description, "manifest.sig: signed by key \(key.keyId), which is not trusted (trusted: \(stranger.keyId))")
        XCTAssertEqual(error?.kind, .untrustedKey)
    }

    func testSignatureByAnotherKeyClaimingTheTrustedId() throws {
        try pack()
        let forged = BundleSignature(keyId: key.keyId, signature: BundleKey().signature(for: Array(try read("manifest.json").utf8)))
        try write("manifest.sig", forged.fileText)
        XCTAssertEqual(bundleError { try verifier.verifyFolder(folder) }?.kind, .signatureMismatch)
    }

    func testMissingFile() throws {
        try pack()
        try FileManager.default.removeItem(atPath: folder + "/main.js")
        let error = bundleError { try verifier.verifyFolder(folder) }
        XCTAssertEqual(error?.description, "main.js: listed in the manifest but missing from the bundle")
        XCTAssertEqual(error?.kind, .missingFile)
    }

    func testExtraFile() throws {
        try pack()
        try write("screens/secret.json", "{}")
        let error = bundleError { try verifier.verifyFolder(folder) }
        XCTAssertEqual(error?.description, "screens/secret.json: is not listed in the manifest's files")
        XCTAssertEqual(error?.kind, .unlistedFile)
    }

    func testUnsignedFolder() throws {
        let error = bundleError { try verifier.verifyFolder(folder) }
        XCTAssertEqual(error?.kind, .missingSignature)
        XCTAssertEqual(error?.file, "manifest.sig")
    }

    func testFirstFailingFileIsNamed() throws {
        try pack()
        try write("main.js", "changed")
        try write("screens/home.json", "changed too")
        XCTAssertEqual(bundleError { try verifier.verifyFolder(folder) }?.file, "main.js")
    }

    func testSymbolicLinksAreRefused() throws {
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.js", withDestinationPath: "main.js")
        let packError = bundleError { try pack() }
        XCTAssertEqual(packError?.description, "link.js: is a symbolic link; a signed bundle holds regular files only")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/manifest.sig"))

        try FileManager.default.removeItem(atPath: folder + "/link.js")
        try pack()
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.js", withDestinationPath: "/etc/passwd")
        XCTAssertEqual(bundleError { try verifier.verifyFolder(folder) }?.kind, .symbolicLink)
    }

    func testPackRefusesABrokenManifest() throws {
        try write("manifest.json", manifest.replacingOccurrences(of: "\"home\": \"screens/home.json\"", with: "\"home\": \"screens/missing.json\""))
        let error = bundleError { try pack() }
        XCTAssertEqual(error?.kind, .invalidManifest)
        XCTAssertTrue(error?.description.hasPrefix("manifest.json:7:24: $.screens.home: ") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.description.contains("screens/missing.json") ?? false, "\(String(describing: error))")
    }

    func testPackRefusesAnArchiveInsideTheFolder() throws {
        let error = bundleError { try BundleSigner(key: key).pack(folder: folder, archivePath: folder + "/shop.hbundle") }
        XCTAssertEqual(error?.kind, .cannotWrite)
        XCTAssertTrue(error?.message.contains("inside the bundle folder") ?? false)
    }

    func testReferencedFilesMustBeListed() throws {
        try pack()
        // Re-sign a manifest whose screen is not in `files`: a trusted key signed it, but the
        // screen would load unchecked, so it is refused.
        let text = try read("manifest.json").replacingOccurrences(of: "\"main.js\": {", with: "\"other.js\": {")
        try write("manifest.json", text)
        try write("manifest.sig", BundleSignature(signing: Array(text.utf8), with: key).fileText)
        let error = bundleError { try verifier.verifyFolder(folder) }
        XCTAssertEqual(error?.description, "manifest.json: $.entry names \"main.js\", which is not listed in \"files\"")
    }
}
