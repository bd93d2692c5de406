import Foundation
import HybridBundles
import XCTest

/// `.hbundle` archives: packing, verifying into a staging folder, and crafted bad archives
/// (built with ZIPFoundation) that must be refused with nothing left behind.
final class SigningArchiveTests: SigningTestCase {
    func testPackedArchiveVerifiesIntoStaging() throws {
        let result = try pack(archive: true)
        XCTAssertEqual(result.archivePath, archivePath)
        let verified = try verifier.verifyArchive(archivePath, stagingParent: staging)
        XCTAssertTrue(verified.isStaged)
        XCTAssertTrue(verified.root.hasPrefix(staging + "/"), verified.root)
        XCTAssertEqual(verified.manifest.version.description, "1.4.2")
        XCTAssertEqual(verified.manifestBytes, result.manifestBytes)
        // The staged folder is a verified folder in its own right, ready to be renamed into place.
        for name in ["manifest.json", "manifest.sig", "main.js", "screens/home.json"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: verified.root + "/" + name)),
                           try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)), name)
        }
        XCTAssertNoThrow(try verifier.verifyFolder(verified.root))
        verified.removeStaging()
        XCTAssertEqual(try stagingLeftovers(), [])

        // `verify` tells folders from archives.
        XCTAssertTrue(try verifier.verify(archivePath, stagingParent: staging).isStaged)
        XCTAssertFalse(try verifier.verify(folder).isStaged)
    }

    func testPackingTwiceGivesTheSameArchive() throws {
        try pack(archive: true)
        let first = try Data(contentsOf: URL(fileURLWithPath: archivePath))
        try FileManager.default.removeItem(atPath: archivePath)
        try pack(archive: true)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: archivePath)), first)
    }

    private func assertRefused(_ entries: [CraftedEntry], _ description: String, kind: BundleError.Kind, file: StaticString = #filePath, line: UInt = #line) throws {
        let crafted = base.appendingPathComponent("crafted.hbundle").path
        try craftArchive(at: crafted, entries)
        let error = bundleError({ try verifier.verifyArchive(crafted, stagingParent: staging) }, file: file, line: line)
        XCTAssertEqual(error?.description, description, file: file, line: line)
        XCTAssertEqual(error?.kind, kind, file: file, line: line)
        XCTAssertEqual(try stagingLeftovers(), [], "a refused archive leaves nothing staged", file: file, line: line)
    }

    func testCraftedCopyOfAGoodBundleVerifies() throws {
        let crafted = base.appendingPathComponent("crafted.hbundle").path
        try craftArchive(at: crafted, try signedEntries())
        XCTAssertNoThrow(try verifier.verifyArchive(crafted, stagingParent: staging).removeStaging())
    }

    func testTamperedFileInArchive() throws {
        let tampered = Array((screen + "  ").utf8)
        try assertRefused(try signedEntries(["screens/home.json": tampered]),
                          "screens/home.json: size \(tampered.count) differs from the manifest's \(screen.utf8.count)", kind: .sizeMismatch)
        let sameSize = Array(screen.replacingOccurrences(of: "Hello", with: "Hellx").utf8)
        let crafted = base.appendingPathComponent("crafted.hbundle").path
        try craftArchive(at: crafted, try signedEntries(["screens/home.json": sameSize]))
        XCTAssertEqual(bundleError { try verifier.verifyArchive(crafted, stagingParent: staging) }?.kind, .digestMismatch)
    }

    func testTamperedManifestInArchive() throws {
        let text = try { () throws -> String in try pack(); return try read("manifest.json") }()
        let changed = Array(text.replacingOccurrences(of: "\"storage\"", with: "\"net.request\"").utf8)
        let entries = try signedEntries(["manifest.json": changed])
        let crafted = base.appendingPathComponent("crafted.hbundle").path
        try craftArchive(at: crafted, entries)
        let error = bundleError { try verifier.verifyArchive(crafted, stagingParent: staging) }
        XCTAssertEqual(error?.kind, .signatureMismatch)
        XCTAssertEqual(error?.file, "manifest.sig")
    }

    func testUntrustedKeyOnArchive() throws {
        try pack(archive: true)
        let error = bundleError { try BundleVerifier(trustedKeys: []).verifyArchive(archivePath, stagingParent: staging) }
        XCTAssertEqual(error?.description, "manifest.sig: signed by key \(key.keyId), which is not trusted (no key is trusted)")
        XCTAssertEqual(try stagingLeftovers(), [])
    }

    func testMissingAndExtraEntries() throws {
        try assertRefused(try signedEntries(dropping: ["main.js"]),
                          "main.js: listed in the manifest but missing from the archive", kind: .missingFile)
        try assertRefused(try signedEntries() + [.file("screens/extra.json", Array("{}".utf8))],
                          "screens/extra.json: is not listed in the manifest's files", kind: .unlistedFile)
        try assertRefused(try signedEntries(dropping: ["manifest.sig"]),
                          "manifest.sig: missing; the bundle is not signed (sign it with `hybrid bundle pack`)", kind: .missingSignature)
    }

    func testTruncatedArchive() throws {
        try pack(archive: true)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: archivePath))
        let truncated = base.appendingPathComponent("truncated.hbundle").path
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let error = bundleError { try verifier.verifyArchive(truncated, stagingParent: staging) }
        XCTAssertEqual(error?.description, "\(truncated): not a readable ZIP archive (truncated or damaged)")
        XCTAssertEqual(error?.kind, .damagedArchive)
        XCTAssertEqual(try stagingLeftovers(), [])
    }

    func testPathTraversalEntry() throws {
        try assertRefused(try signedEntries() + [.file("../evil.js", Array("x".utf8))],
                          "../evil.js: \"../evil.js\" leaves the bundle: \"..\" segments are not allowed", kind: .unsafePath)
        try assertRefused(try signedEntries() + [.file("screens/../../evil.js", Array("x".utf8))],
                          "screens/../../evil.js: \"screens/../../evil.js\" leaves the bundle: \"..\" segments are not allowed", kind: .unsafePath)
        try assertRefused(try signedEntries() + [.file("/etc/evil", Array("x".utf8))],
                          "/etc/evil: \"/etc/evil\" is an absolute path; paths are relative to the bundle folder", kind: .unsafePath)
        XCTAssertFalse(FileManager.default.fileExists(atPath: base.appendingPathComponent("evil.js").path))
    }

    func testSymbolicLinkEntry() throws {
        try assertRefused(try signedEntries() + [.link("screens/passwd.json", target: "/etc/passwd")],
                          "screens/passwd.json: is a symbolic link; archives may hold regular files and folders only", kind: .symbolicLink)
        // Even under a listed name, a link is refused before anything is read through it.
        try assertRefused(try signedEntries(dropping: ["main.js"]) + [.link("main.js", target: "../../outside.js")],
                          "main.js: is a symbolic link; archives may hold regular files and folders only", kind: .symbolicLink)
    }

    func testFolderEntriesAreAllowed() throws {
        let crafted = base.appendingPathComponent("crafted.hbundle").path
        try craftArchive(at: crafted, [.folder("screens/")] + (try signedEntries()))
        XCTAssertNoThrow(try verifier.verifyArchive(crafted, stagingParent: staging).removeStaging())
    }

    func testDuplicateEntry() throws {
        try assertRefused(try signedEntries() + [.file("main.js", Array("evil".utf8))],
                          "main.js: appears twice in the archive", kind: .damagedArchive)
    }
}
