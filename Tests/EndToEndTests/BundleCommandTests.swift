import Foundation
import TestSupport
import XCTest

/// `hybrid bundle keygen | pack | verify` (SPEC §6) through the real binary, on a copy of
/// `samples/todo` in a temporary folder.
final class BundleCommandTests: XCTestCase {
    var folder: URL!
    var todo: String { folder.appendingPathComponent("todo").path }
    var keys: String { folder.appendingPathComponent("keys").path }
    var archive: String { folder.appendingPathComponent("todo.hbundle").path }

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory("hybrid-bundle")
        try FileManager.default.copyItem(at: CommandRunner.repository.appendingPathComponent("samples/todo"), to: URL(fileURLWithPath: todo))
    }

    private func keygen(_ name: String) throws -> CommandRunner.Result {
        try CommandRunner.hybrid(["bundle", "keygen", name, "--out-dir", keys])
    }

    private func verify(_ target: String, key: String = "release") throws -> CommandRunner.Result {
        try CommandRunner.hybrid(["bundle", "verify", target, "--pubkey", "\(keys)/\(key).pub"])
    }

    /// The key id written in `keys/NAME.pub`.
    private func keyID(_ name: String) throws -> String {
        String(try String(contentsOfFile: "\(keys)/\(name).pub", encoding: .utf8).split(separator: " ")[1])
    }

    /// Keys and a signed folder and archive.
    private func packTodo() throws {
        let keygen = try keygen("release")
        XCTAssertEqual(keygen.status, 0, keygen.standardError)
        XCTAssertTrue(keygen.standardOutput.contains("\(keys)/release.key"), keygen.standardOutput)
        let unsigned = try Data(contentsOf: URL(fileURLWithPath: todo + "/manifest.json"))
        let pack = try CommandRunner.hybrid(["bundle", "pack", todo, "--key", "\(keys)/release.key", "--out", archive])
        XCTAssertEqual(pack.status, 0, pack.standardError)
        XCTAssertEqual(pack.standardOutput, "wrote \(archive), signed: 2 files listed, key id \(try keyID("release")) (\(todo) unchanged)\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: todo + "/manifest.json")), unsigned, "--out leaves the folder as it was")
        XCTAssertFalse(FileManager.default.fileExists(atPath: todo + "/manifest.sig"))
        let inPlace = try CommandRunner.hybrid(["bundle", "pack", todo, "--key", "\(keys)/release.key"])
        XCTAssertEqual(inPlace.status, 0, inPlace.standardError)
        XCTAssertEqual(inPlace.standardOutput, "signed \(todo): 2 files listed, key id \(try keyID("release"))\n")
    }

    func testKeygenPackVerifyFolderAndArchive() throws {
        try packTodo()
        let keyLine = try String(contentsOfFile: "\(keys)/release.key", encoding: .utf8)
        XCTAssertTrue(keyLine.hasPrefix("hybridterm-ed25519-private "), keyLine)
        let mode = try FileManager.default.attributesOfItem(atPath: "\(keys)/release.key")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        let manifest = try String(contentsOfFile: todo + "/manifest.json", encoding: .utf8)
        XCTAssertTrue(manifest.contains("\"screens/home.json\": { \"sha256\": \""), manifest)
        XCTAssertTrue(FileManager.default.fileExists(atPath: todo + "/manifest.sig"))

        for target in [todo, archive] {
            let result = try verify(target)
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertTrue(result.standardOutput.hasPrefix("\(target): ok (todo 1.0.0, 2 files, signed by key "), result.standardOutput)
            XCTAssertEqual(result.standardError, "")
        }
        // The signed folder is still a valid bundle.
        XCTAssertEqual(try CommandRunner.hybrid(["validate", todo]).status, 0)
    }

    func testTamperedFileIsNamed() throws {
        try packTodo()
        let home = todo + "/screens/home.json"
        let size = try Data(contentsOf: URL(fileURLWithPath: home)).count
        try Data("{}".utf8).write(to: URL(fileURLWithPath: home))
        let result = try verify(todo)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardError, "\(todo)/screens/home.json: size 2 differs from the manifest's \(size)\n")
        XCTAssertEqual(result.standardOutput, "")
    }

    func testUntrustedKeyAndTamperedManifest() throws {
        try packTodo()
        XCTAssertEqual(try keygen("stranger").status, 0)
        let untrusted = try verify(archive, key: "stranger")
        XCTAssertEqual(untrusted.status, 1)
        XCTAssertTrue(untrusted.standardError.hasPrefix("\(archive): manifest.sig: signed by key "), untrusted.standardError)
        XCTAssertTrue(untrusted.standardError.contains("which is not trusted"), untrusted.standardError)

        let manifestURL = URL(fileURLWithPath: todo + "/manifest.json")
        let text = try String(contentsOf: manifestURL, encoding: .utf8)
        try text.replacingOccurrences(of: "\"1.0.0\"", with: "\"9.0.0\"").write(to: manifestURL, atomically: true, encoding: .utf8)
        let tampered = try verify(todo)
        XCTAssertEqual(tampered.status, 1)
        XCTAssertTrue(tampered.standardError.hasPrefix("\(todo)/manifest.sig: the signature does not match manifest.json"), tampered.standardError)
    }

    func testTruncatedArchive() throws {
        try packTodo()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        try bytes.prefix(bytes.count - 30).write(to: URL(fileURLWithPath: archive))
        let result = try verify(archive)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardError, "\(archive): not a readable ZIP archive (truncated or damaged)\n")
        // Running it says so once (it was logged, then thrown and printed again).
        let data = folder.appendingPathComponent("data").path
        let run = try CommandRunner.hybrid(["run", archive, "--pubkey", "\(keys)/release.pub", "--headless"],
                                           environment: ["XDG_DATA_HOME": data, "XDG_CACHE_HOME": data])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.standardError, "\(archive): not a readable ZIP archive (truncated or damaged)\n")
    }

    func testUsageErrorsExitTwo() throws {
        XCTAssertEqual(try CommandRunner.hybrid(["bundle", "verify", todo]).status, 2)
        XCTAssertEqual(try CommandRunner.hybrid(["bundle", "pack", todo]).status, 2)
        XCTAssertEqual(try CommandRunner.hybrid(["bundle", "pack", todo, "--key", "k.key", "--out", "todo.zip"]).status, 2)
        XCTAssertEqual(try CommandRunner.hybrid(["bundle", "nonsense"]).status, 2)
    }

    func testKeygenNeverOverwritesAndPackNeedsThePrivateKey() throws {
        XCTAssertEqual(try keygen("release").status, 0)
        let again = try keygen("release")
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.standardError.contains("already exists; keygen never overwrites a key"), again.standardError)
        let pack = try CommandRunner.hybrid(["bundle", "pack", todo, "--key", "\(keys)/release.pub"])
        XCTAssertEqual(pack.status, 1)
        XCTAssertTrue(pack.standardError.contains("is a public key; expected the private key (NAME.key)"), pack.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: todo + "/manifest.sig"))
    }
}
