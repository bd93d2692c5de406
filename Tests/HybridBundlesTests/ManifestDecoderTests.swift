import HybridBundles
import HybridJSON
import XCTest

/// The manifest decoder: what it builds from a good manifest, and the exact located message of
/// each problem (the fixtures cover one problem per file; these cover the rest).
final class ManifestDecoderTests: XCTestCase {
    private func load(_ text: String) -> Loaded<BundleManifest> {
        BundleManifest.load(SourceText(name: "manifest.json", text: text))
    }

    private func assertDiagnostics(_ text: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        let load = load(text)
        XCTAssertEqual(load.formattedDiagnostics, expected, file: file, line: line)
        XCTAssertNil(load.value, file: file, line: line)
    }

    func testDecodesEveryField() throws {
        let load = load("""
        { "$schema": "../schemas/manifest.schema.json", "app": "shop", "version": "1.4.2", "runtime": "^1.0.0",
          "entry": "main.js", "start": "app://detail?id=3", "screens": { "home": "screens/home.json", "detail": "screens/detail.json" },
          "patches": ["patches/a.js", "patches/b.js"], "permissions": ["net.request", "cart"],
          "files": { "main.js": { "sha256": "\(String(repeating: "ab", count: 32))", "size": 12 } } }
        """)
        XCTAssertEqual(load.diagnostics, [])
        let manifest = try XCTUnwrap(load.value)
        XCTAssertEqual(manifest, BundleManifest(
            app: "shop", version: SemanticVersion(major: 1, minor: 4, patch: 2), runtime: VersionRequirement(.compatible, SemanticVersion("1.0.0")!),
            entry: "main.js", start: "app://detail?id=3", startScreen: "detail",
            screens: ["home": "screens/home.json", "detail": "screens/detail.json"],
            patches: ["patches/a.js", "patches/b.js"], permissions: ["net.request", "cart"],
            files: ["main.js": .init(sha256: String(repeating: "ab", count: 32), size: 12)]
        ))
    }

    func testOptionalFieldsDefault() throws {
        let manifest = try XCTUnwrap(load(#"{"app": "a", "version": "0.0.1", "start": "s", "screens": {"s": "s.json"}}"#).value)
        XCTAssertNil(manifest.runtime)
        XCTAssertNil(manifest.entry)
        XCTAssertNil(manifest.files)
        XCTAssertEqual(manifest.patches, [])
        XCTAssertEqual(manifest.permissions, [])
        XCTAssertEqual(manifest.startScreen, "s")
    }

    func testEveryProblemIsCollectedInSourceOrder() {
        assertDiagnostics("""
        {
          "app": 5,
          "version": "1.0",
          "start": "app://nowhere",
          "screens": { "home": "home.json" },
          "entyr": "main.js"
        }
        """, [
            "manifest.json:2:10: $.app: expected a string, got a number",
            "manifest.json:3:14: $.version: invalid version \"1.0\": expected MAJOR.MINOR.PATCH with an optional -prerelease, like \"1.4.2\" or \"2.0.0-beta.1\"",
            "manifest.json:4:12: $.start: unknown screen \"nowhere\" (the screens are \"home\")",
            "manifest.json:6:3: $.entyr: unknown field \"entyr\" in the manifest; did you mean \"entry\"?",
        ])
    }

    func testMissingRequiredFields() {
        assertDiagnostics("{}", [
            "manifest.json:1:1: $: missing required field \"app\"",
            "manifest.json:1:1: $: missing required field \"version\"",
            "manifest.json:1:1: $: missing required field \"start\"",
            "manifest.json:1:1: $: missing required field \"screens\"",
        ])
    }

    func testDuplicates() {
        assertDiagnostics("""
        {"app": "a", "app": "b", "version": "1.0.0", "start": "s",
         "screens": {"s": "s.json", "s": "t.json"}, "patches": ["p.js", "p.js"]}
        """, [
            "manifest.json:1:14: $.app: duplicate field \"app\"",
            "manifest.json:2:29: $.screens.s: duplicate screen \"s\"",
            "manifest.json:2:65: $.patches[1]: \"p.js\" is listed twice",
        ])
    }

    func testWrongKinds() {
        assertDiagnostics("""
        {"$schema": 1, "app": "a", "version": 1, "runtime": true, "start": ["s"], "screens": [],
         "patches": "p.js", "permissions": {}, "files": [], "entry": null}
        """, [
            "manifest.json:1:13: $.$schema: expected a string, got a number",
            "manifest.json:1:39: $.version: expected a string, got a number",
            "manifest.json:1:53: $.runtime: expected a string, got a boolean",
            "manifest.json:1:68: $.start: expected a string, got an array",
            "manifest.json:1:86: $.screens: expected an object mapping screen names to .json paths, got an array",
            "manifest.json:2:13: $.patches: expected an array of paths of .js scripts, got a string",
            "manifest.json:2:36: $.permissions: expected an array of permission names, got an object",
            "manifest.json:2:49: $.files: expected an object mapping paths to {\"sha256\", \"size\"}, got an array",
            "manifest.json:2:62: $.entry: expected a string, got null",
        ])
    }

    func testFileEntries() {
        let digest = String(repeating: "0", count: 64)
        assertDiagnostics("""
        {"app": "a", "version": "1.0.0", "start": "s", "screens": {"s": "s.json"}, "files": {
          "a.js": 3,
          "b.js": {"sha256": "\(digest)", "size": 1.5},
          "c.js": {"sha256": "abc", "size": "1"},
          "../d.js": {"sha256": "\(digest)", "size": 1},
          "e.js": {"sha256": "\(digest)", "size": 1, "mode": 420}
        }}
        """, [
            "manifest.json:2:11: $.files[\"a.js\"]: expected a file entry {\"sha256\", \"size\"}, got a number",
            "manifest.json:3:98: $.files[\"b.js\"].size: expected a size in bytes (a non-negative integer), got 1.5",
            "manifest.json:4:22: $.files[\"c.js\"].sha256: expected a SHA-256 digest (64 lowercase hexadecimal digits), got \"abc\"",
            "manifest.json:4:37: $.files[\"c.js\"].size: expected a size in bytes (a non-negative integer), got a string",
            "manifest.json:5:3: $.files[\"../d.js\"]: \"../d.js\" leaves the bundle: \"..\" segments are not allowed",
            "manifest.json:6:101: $.files[\"e.js\"].mode: unknown field \"mode\" in a file entry",
        ])
    }

    func testStartForms() {
        let screens = #""screens": {"home": "h.json", "detail": "d.json"}"#
        XCTAssertEqual(load(#"{"app": "a", "version": "1.0.0", "start": "app://detail", \#(screens)}"#).value?.startScreen, "detail")
        XCTAssertEqual(load(#"{"app": "a", "version": "1.0.0", "start": "app://home#top", \#(screens)}"#).value?.startScreen, "home")
        assertDiagnostics(#"{"app": "a", "version": "1.0.0", "start": "app://home/x", \#(screens)}"#, [
            "manifest.json:1:43: $.start: expected a screen name or an app://SCREEN URL, got \"app://home/x\"",
        ])
        assertDiagnostics(#"{"app": "a", "version": "1.0.0", "start": "1home", \#(screens)}"#, [
            "manifest.json:1:43: $.start: expected a screen name or an app://SCREEN URL, got \"1home\"",
        ])
        assertDiagnostics(#"{"app": "a", "version": "1.0.0", "start": "home", "screens": {}}"#, [
            "manifest.json:1:43: $.start: unknown screen \"home\" (\"screens\" is empty)",
        ])
    }

    func testPermissionNames() {
        assertDiagnostics(#"{"app": "a", "version": "1.0.0", "start": "s", "screens": {"s": "s.json"}, "permissions": ["net request", "", "a..b"]}"#, [
            "manifest.json:1:92: $.permissions[0]: expected a permission name like \"net.request\" or \"storage\", got \"net request\"",
            "manifest.json:1:107: $.permissions[1]: expected a permission name like \"net.request\" or \"storage\", got \"\"",
            "manifest.json:1:111: $.permissions[2]: expected a permission name like \"net.request\" or \"storage\", got \"a..b\"",
        ])
    }

    func testAppNames() {
        for good in ["shop", "my-app_2", "com.example.shop", "_x", "9lives"] {
            XCTAssertTrue(BundleNames.isAppName(good), good)
        }
        for bad in ["", ".", "..", ".hidden", "a/b", "a b", "café", String(repeating: "a", count: 129)] {
            XCTAssertFalse(BundleNames.isAppName(bad), bad)
        }
    }

    func testBundlePathRules() {
        XCTAssertNil(BundlePath.problem(with: "screens/home.json"))
        XCTAssertNil(BundlePath.problem(with: ".well-known/x.js"))
        XCTAssertNil(BundlePath.problem(with: "a..b/c"))
        let cases: [(String, String)] = [
            ("", "expected a relative path, got an empty string"),
            ("/etc/passwd", "\"/etc/passwd\" is an absolute path; paths are relative to the bundle folder"),
            ("~/x.js", "\"~/x.js\" is an absolute path; paths are relative to the bundle folder"),
            ("c:/x.js", "\"c:/x.js\" is an absolute path; paths are relative to the bundle folder"),
            ("a\\b.js", "\"a\\b.js\" contains a backslash; separate folders with \"/\""),
            ("..", "\"..\" leaves the bundle: \"..\" segments are not allowed"),
            ("a/../../b", "\"a/../../b\" leaves the bundle: \"..\" segments are not allowed"),
            ("a/./b", "\"a/./b\" has a \".\" segment; write the path without it"),
            ("a/", "\"a/\" names a folder; expected a file"),
            ("a//b", "\"a//b\" has an empty segment (\"//\")"),
            ("a\tb", "\"a\tb\" contains a control character"),
        ]
        for (path, message) in cases {
            XCTAssertEqual(BundlePath.problem(with: path), message, path)
            XCTAssertFalse(BundlePath.isValid(path), path)
        }
    }

    func testUnreadableFile() {
        let load = BundleManifest.load(contentsOf: "/nonexistent/manifest.json")
        XCTAssertEqual(load.formattedDiagnostics, ["/nonexistent/manifest.json:1:1: $: cannot read the file: no such file or directory"])
    }
}
