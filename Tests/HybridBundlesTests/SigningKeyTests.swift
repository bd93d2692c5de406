import Foundation
import HybridBundles
import XCTest

/// Key generation, key files and `manifest.sig`.
final class SigningKeyTests: SigningTestCase {
    func testKeyFilesRoundTrip() throws {
        let base = self.base.appendingPathComponent("release").path
        let paths = try key.write(to: base)
        XCTAssertEqual(paths.privateKey, base + ".key")
        XCTAssertEqual(paths.publicKey, base + ".pub")

        let privateKey = try BundleKey(contentsOf: paths.privateKey)
        let publicKey = try BundlePublicKey(contentsOf: paths.publicKey)
        XCTAssertEqual(privateKey.keyId, key.keyId)
        XCTAssertEqual(publicKey, key.publicKey)
        XCTAssertEqual(key.keyId.count, 16)
        XCTAssertEqual(key.keyId, BundlePublicKey.keyId(of: key.publicKey.rawBytes))

        let line = try String(contentsOfFile: paths.privateKey, encoding: .utf8)
        XCTAssertTrue(line.hasPrefix("hybridterm-ed25519-private \(key.keyId) "), line)
        XCTAssertTrue(line.hasSuffix("\n"))
        let publicLine = try String(contentsOfFile: paths.publicKey, encoding: .utf8)
        XCTAssertTrue(publicLine.hasPrefix("hybridterm-ed25519-public \(key.keyId) "), publicLine)

        let mode = try FileManager.default.attributesOfItem(atPath: paths.privateKey)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)

        // A key read back signs what the original's public key accepts.
        let bytes = Array("manifest".utf8)
        XCTAssertTrue(key.publicKey.isValidSignature(privateKey.signature(for: bytes), for: bytes))
        XCTAssertFalse(key.publicKey.isValidSignature(privateKey.signature(for: bytes), for: bytes + [0]))
    }

    func testKeygenNeverOverwrites() throws {
        let base = self.base.appendingPathComponent("release").path
        try key.write(to: base)
        XCTAssertThrowsError(try BundleKey().write(to: base)) { error in
            XCTAssertEqual("\(error)", "\(base).key already exists; keygen never overwrites a key")
        }
        XCTAssertEqual(try BundleKey(contentsOf: base + ".key").keyId, key.keyId)
    }

    func testWrongOrBrokenKeyFiles() throws {
        let base = self.base.appendingPathComponent("release").path
        try key.write(to: base)
        XCTAssertThrowsError(try BundleKey(contentsOf: base + ".pub")) { error in
            XCTAssertEqual("\(error)", "\(base).pub: is a public key; expected the private key (NAME.key)")
        }
        XCTAssertThrowsError(try BundlePublicKey(contentsOf: base + ".key")) { error in
            XCTAssertEqual("\(error)", "\(base).key: is a private key; expected the public key (NAME.pub)")
        }
        XCTAssertThrowsError(try BundlePublicKey(contentsOf: base + ".missing")) { error in
            XCTAssertEqual("\(error)", "\(base).missing: no such key file")
        }
        let other = BundleKey()
        let forged = key.publicKey.fileText.replacingOccurrences(of: key.keyId, with: other.keyId)
        try Data(forged.utf8).write(to: URL(fileURLWithPath: base + ".forged"))
        XCTAssertThrowsError(try BundlePublicKey(contentsOf: base + ".forged")) { error in
            XCTAssertTrue("\(error)".contains("the key id \(other.keyId) is not this key's (\(key.keyId))"), "\(error)")
        }
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: base + ".junk"))
        XCTAssertThrowsError(try BundlePublicKey(contentsOf: base + ".junk")) { error in
            XCTAssertTrue("\(error)".contains("not a HybridTerm public key"), "\(error)")
        }
    }

    func testSignatureFileRoundTrip() throws {
        let signature = BundleSignature(signing: Array("{}".utf8), with: key)
        let text = signature.fileText
        XCTAssertTrue(text.hasPrefix("{\"keyId\": \"\(key.keyId)\", \"alg\": \"ed25519\", \"sig\": \""), text)
        XCTAssertEqual(try BundleSignature(parsing: Array(text.utf8)), signature)

        let other = text.replacingOccurrences(of: "ed25519", with: "rsa")
        XCTAssertEqual(bundleError { try BundleSignature(parsing: Array(other.utf8)) }?.description,
                       "manifest.sig: unsupported algorithm \"rsa\"; expected \"ed25519\"")
        XCTAssertEqual(bundleError { try BundleSignature(parsing: Array("[]".utf8)) }?.kind, .invalidSignatureFile)
        let extra = text.replacingOccurrences(of: "{", with: "{\"note\": 1, ")
        XCTAssertEqual(bundleError { try BundleSignature(parsing: Array(extra.utf8)) }?.description,
                       "manifest.sig: unknown field \"note\"; expected {\"keyId\", \"alg\": \"ed25519\", \"sig\"}")
    }
}
