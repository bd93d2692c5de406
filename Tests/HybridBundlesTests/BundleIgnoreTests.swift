@testable import HybridBundles
import XCTest

/// What packing leaves out of a bundle folder (SPEC §5): dotfiles, dot-folders, private keys
/// and what `.hbundleignore` names, in gitignore's syntax.
final class BundleIgnoreTests: XCTestCase {
    func reason(_ rules: String, _ path: String, folder: Bool = false, contents: String? = nil) -> String? {
        BundleIgnore(text: rules).reason(forLeavingOut: path, isFolder: folder, contents: { contents.map { Array($0.utf8) } })
    }

    func testDotfilesDotFoldersAndPrivateKeysAreAlwaysLeftOut() {
        XCTAssertEqual(reason("", ".git", folder: true), "a dot-folder")
        XCTAssertEqual(reason("", "screens/.DS_Store"), "a dotfile")
        XCTAssertEqual(reason("", ".hbundleignore"), "a dotfile")
        XCTAssertEqual(reason("", "release.key"), "a private key")
        XCTAssertEqual(reason("", "notes.txt", contents: "\(BundleKey.fileTag) 0123 abc"), "a private key", "found by its first line")
        XCTAssertNil(reason("", "main.js", contents: "hybrid.ready();"))
        XCTAssertNil(reason("", "release.pub", contents: "hybridterm-ed25519-public 0123 abc"), "a public key may ship")
    }

    func testIgnoreFilePatterns() {
        let rules = """
        # drafts and build output
        *.draft.json
        /build/
        docs/**
        **/tmp
        !keep.draft.json
        """
        XCTAssertEqual(reason(rules, "screens/home.draft.json"), "named in .hbundleignore", "a name pattern matches at any depth")
        XCTAssertNil(reason(rules, "screens/keep.draft.json"), "! takes a file back")
        XCTAssertEqual(reason(rules, "build", folder: true), "named in .hbundleignore")
        XCTAssertNil(reason(rules, "screens/build", folder: true), "a leading / anchors at the root")
        XCTAssertNil(reason(rules, "build"), "a trailing / names folders only")
        XCTAssertEqual(reason(rules, "docs/a/b.md"), "named in .hbundleignore", "** crosses folders")
        XCTAssertNil(reason(rules, "docs", folder: true), "folder/** is what is inside, not the folder")
        XCTAssertEqual(reason(rules, "tmp", folder: true), "named in .hbundleignore", "**/ may stand for no folder")
        XCTAssertEqual(reason(rules, "a/b/tmp", folder: true), "named in .hbundleignore")
        XCTAssertNil(reason(rules, "main.js"))
    }
}
