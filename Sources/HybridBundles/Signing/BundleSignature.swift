import Foundation
import HybridJSON

/// `manifest.sig` (SPEC §5): `{"keyId": "…", "alg": "ed25519", "sig": "<base64>"}`, an Ed25519
/// signature of `manifest.json`'s exact bytes by the key `keyId` names.
public struct BundleSignature: Sendable, Hashable {
    /// The only algorithm: `ed25519`.
    public static let algorithm = "ed25519"
    /// The fields the file has, in the order they are written.
    public static let fieldNames = ["keyId", "alg", "sig"]

    /// The signing key's id (see `BundlePublicKey.keyId`).
    public var keyId: String
    /// The 64-byte Ed25519 signature.
    public var signature: [UInt8]

    /// A signature from its parts.
    public init(keyId: String, signature: [UInt8]) {
        self.keyId = keyId
        self.signature = signature
    }

    /// Signs `manifestBytes` with `key`.
    public init(signing manifestBytes: [UInt8], with key: BundleKey) {
        self.init(keyId: key.keyId, signature: key.signature(for: manifestBytes))
    }

    /// The file's text (one line, newline-terminated).
    public var fileText: String {
        var text = "{\"keyId\": "
        JSONText.appendQuoted(keyId, to: &text)
        text += ", \"alg\": \"\(Self.algorithm)\", \"sig\": \"\(Data(signature).base64EncodedString())\"}\n"
        return text
    }

    /// Reads `manifest.sig`'s bytes; errors name `manifest.sig`.
    public init(parsing bytes: [UInt8]) throws(BundleError) {
        func failure(_ message: String) -> BundleError {
            BundleError(.invalidSignatureFile, file: BundleFolder.signatureName, message)
        }
        let json: SourceJSON
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw failure("invalid JSON: \(error.message)")
        }
        let expected = "{\"keyId\", \"alg\": \"ed25519\", \"sig\"}"
        guard let members = json.members else {
            throw failure("expected an object \(expected), got \(json.kindDescription)")
        }
        for (member, isDuplicate) in members.unexpected(allowing: Self.fieldNames) {
            throw failure(isDuplicate ? "duplicate field \"\(member.key)\"" : "unknown field \"\(member.key)\"; expected \(expected)")
        }
        func string(_ key: String) throws(BundleError) -> String {
            guard let value = json[key] else { throw failure("missing field \"\(key)\"") }
            guard let text = value.stringValue else { throw failure("\"\(key)\" must be a string, got \(value.kindDescription)") }
            return text
        }
        let algorithm = try string("alg")
        guard algorithm == Self.algorithm else {
            throw failure("unsupported algorithm \"\(algorithm)\"; expected \"\(Self.algorithm)\"")
        }
        let keyId = try string("keyId")
        let encoded = try string("sig")
        guard let signature = Data(base64Encoded: encoded) else { throw failure("\"sig\" is not base64") }
        guard signature.count == 64 else {
            throw failure("\"sig\" holds \(signature.count) bytes; an Ed25519 signature has 64")
        }
        self.init(keyId: keyId, signature: Array(signature))
    }
}
