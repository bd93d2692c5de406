import Foundation
import TestSupport
import XCTest

/// The example host (`shop-demo`): its shipped `Cart.total` is wrong, and the signed
/// `samples/shop-hotfix` bundle fixes it without a rebuild.
final class ShopDemoTests: XCTestCase {
    var folder: URL!
    /// Two Sencha and one Earl Grey: 2 × 9.50 + 7.00 = 26.00 (the shipped bug says 16.50).
    let keys = "enter enter down enter"

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory("shop-demo")
    }

    var environment: [String: String] {
        ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path]
    }

    func shop(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run("shop-demo", arguments + ["--headless", "--size", "50x11"], environment: environment)
    }

    /// Signs a copy of `samples/shop-hotfix` (the sample itself stays unsigned) into an archive.
    func signedHotfix() throws -> (archive: String, publicKey: String) {
        let copy = folder.appendingPathComponent("shop-hotfix").path
        try FileManager.default.copyItem(atPath: CommandRunner.repository.appendingPathComponent("samples/shop-hotfix").path, toPath: copy)
        let key = folder.appendingPathComponent("shop").path
        XCTAssertEqual(try CommandRunner.hybrid(["bundle", "keygen", key]).status, 0)
        let archive = folder.appendingPathComponent("shop-hotfix.hbundle").path
        let pack = try CommandRunner.hybrid(["bundle", "pack", copy, "--key", key + ".key", "--out", archive])
        XCTAssertEqual(pack.status, 0, pack.standardError)
        return (archive, key + ".pub")
    }

    func testTheShippedTotalIgnoresQuantities() throws {
        let result = try shop(["--keys", keys])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardError, "")
        try CommandRunner.assertGolden(result.standardOutput, CommandRunner.repository.appendingPathComponent("Tests/EndToEndTests/Goldens/shop-demo-shipped.txt"))
        XCTAssertTrue(result.standardOutput.contains("Total (Cart.total)                       € 16.50"), result.standardOutput)
    }

    func testTheHotfixBundleFixesTheTotalWithoutARebuild() throws {
        let (archive, publicKey) = try signedHotfix()
        let result = try shop(["--bundle", archive, "--pubkey", publicKey, "--keys", keys])
        XCTAssertEqual(result.status, 0, result.standardError)
        try CommandRunner.assertGolden(result.standardOutput, CommandRunner.repository.appendingPathComponent("Tests/EndToEndTests/Goldens/shop-demo-hotfix.txt"))
        XCTAssertTrue(result.standardOutput.contains("1.0.1 · hot fix"), result.standardOutput)
        XCTAssertTrue(result.standardOutput.contains("€ 26.00"), result.standardOutput)
        // Installed: the next start runs it with no archive at all... as long as it is given
        // the same source, which is the host's to remember; here the cache alone is checked.
        let installed = folder.appendingPathComponent("cache/hybridterm/shop/1.0.1/manifest.json").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: installed))
    }

    func testABundleOfAnotherAppIsRefusedAndTheBuiltInShopRuns() throws {
        let other = folder.appendingPathComponent("other").path
        try FileManager.default.createDirectory(atPath: other + "/screens", withIntermediateDirectories: true)
        try #"{"app": "other", "version": "1.0.0", "start": "home", "screens": {"home": "screens/home.json"}}"#
            .write(toFile: other + "/manifest.json", atomically: true, encoding: .utf8)
        try #"{"format": 1, "id": "home", "body": {"type": "text", "text": "other"}}"#
            .write(toFile: other + "/screens/home.json", atomically: true, encoding: .utf8)
        let key = folder.appendingPathComponent("k").path
        _ = try CommandRunner.hybrid(["bundle", "keygen", key])
        _ = try CommandRunner.hybrid(["bundle", "pack", other, "--key", key + ".key", "--out", other + ".hbundle"])
        let result = try shop(["--bundle", other + ".hbundle", "--pubkey", key + ".pub", "--keys", keys])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains(#"manifest.json: is the app "other", not "shop""#), result.standardError)
        XCTAssertTrue(result.standardOutput.contains("built in"), result.standardOutput)
    }

    func testABundleNeedsATrustedKey() throws {
        let (archive, _) = try signedHotfix()
        let missing = try shop(["--bundle", archive])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.standardError.contains("missing --pubkey"), missing.standardError)
        let key = folder.appendingPathComponent("stranger").path
        _ = try CommandRunner.hybrid(["bundle", "keygen", key])
        let untrusted = try shop(["--bundle", archive, "--pubkey", key + ".pub", "--keys", keys])
        XCTAssertEqual(untrusted.status, 0, untrusted.standardError)
        XCTAssertTrue(untrusted.standardError.contains("which is not trusted"), untrusted.standardError)
        XCTAssertTrue(untrusted.standardOutput.contains("€ 16.50"), "the built-in shop runs: \(untrusted.standardOutput)")
    }
}
