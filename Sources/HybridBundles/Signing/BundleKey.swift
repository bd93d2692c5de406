import Crypto
import Foundation
import HybridFiles
import HybridJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An Ed25519 key pair that signs bundles (SPEC §5), and the key files `hybrid bundle keygen`
/// writes.
///
/// Key files are one line of text each, so they can be read, diffed and pasted:
///
/// ```
/// NAME.key  hybridterm-ed25519-private <keyId> <base64 of the 32-byte private seed>
/// NAME.pub  hybridterm-ed25519-public <keyId> <base64 of the 32-byte public key>
/// ```
///
/// The key id is the first 16 hexadecimal digits of the SHA-256 of the public key's raw bytes;
/// `manifest.sig` names it so a verifier picks the matching trusted key. Reading checks that the
/// id written in the file is the key's own. `NAME.key` is created with mode 0600.
public struct BundleKey: Sendable {
    /// The first word of a private key file.
    public static let fileTag = "hybridterm-ed25519-private"

    /// The 32-byte private seed (kept as bytes: swift-crypto's key types are not `Sendable`).
    let seed: [UInt8]
    /// The public half, derived once.
    public let publicKey: BundlePublicKey

    private var key: Curve25519.Signing.PrivateKey {
        // `seed` was accepted by the same initializer when this value was made.
        try! Curve25519.Signing.PrivateKey(rawRepresentation: seed)
    }

    /// A new random key.
    public init() {
        let key = Curve25519.Signing.PrivateKey()
        seed = Array(key.rawRepresentation)
        publicKey = BundlePublicKey(key: key.publicKey)
    }

    /// The key whose 32-byte private seed is `seed`.
    public init(seed: [UInt8]) throws(BundleKeyError) {
        guard seed.count == 32, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else {
            throw BundleKeyError("expected a 32-byte Ed25519 private key, got \(seed.count) bytes")
        }
        self.seed = seed
        publicKey = BundlePublicKey(key: key.publicKey)
    }

    /// The key id (16 hexadecimal digits), the same as the public key's.
    public var keyId: String { publicKey.keyId }

    /// The private key file's text (one line, newline-terminated).
    public var fileText: String {
        "\(Self.fileTag) \(keyId) \(Data(seed).base64EncodedString())\n"
    }

    /// The Ed25519 signature of `bytes` (64 bytes).
    public func signature(for bytes: [UInt8]) -> [UInt8] {
        // Signing with a valid key only fails when BoringSSL runs out of memory.
        guard let signature = try? key.signature(for: bytes) else { fatalError("Ed25519 signing failed") }
        return Array(signature)
    }

    /// Reads a private key file; `path` is used in messages.
    public init(contentsOf path: String) throws(BundleKeyError) {
        let fields = try KeyFile.read(path, tag: Self.fileTag, otherTag: BundlePublicKey.fileTag, kind: "private")
        let key: BundleKey
        do {
            key = try BundleKey(seed: fields.bytes)
        } catch {
            throw BundleKeyError("\(path): \(error.message)")
        }
        guard key.keyId == fields.keyId else {
            throw BundleKeyError("\(path): the key id \(fields.keyId) is not this key's (\(key.keyId)); the file was edited")
        }
        self = key
    }

    /// Writes `NAME.key` (mode 0600) and `NAME.pub` (mode 0644) for `base` = `FOLDER/NAME`,
    /// refusing to overwrite either; returns the two paths.
    @discardableResult
    public func write(to base: String) throws(BundleKeyError) -> (privateKey: String, publicKey: String) {
        let privatePath = base + ".key"
        let publicPath = base + ".pub"
        for path in [privatePath, publicPath] where FileSystem.exists(path) {
            throw BundleKeyError("\(path) already exists; keygen never overwrites a key")
        }
        try KeyFile.create(privatePath, text: fileText, mode: 0o600)
        do {
            try KeyFile.create(publicPath, text: publicKey.fileText, mode: 0o644)
        } catch {
            unlink(privatePath)
            throw error
        }
        return (privatePath, publicPath)
    }
}

/// The public half of a bundle key: what a host trusts (`--pubkey NAME.pub`).
public struct BundlePublicKey: Sendable, Hashable {
    /// The first word of a public key file.
    public static let fileTag = "hybridterm-ed25519-public"

    /// The key's 32 raw bytes.
    public let rawBytes: [UInt8]
    /// The key id: the first 16 hexadecimal digits of the SHA-256 of `rawBytes`.
    public let keyId: String

    init(key: Curve25519.Signing.PublicKey) {
        rawBytes = Array(key.rawRepresentation)
        keyId = Self.keyId(of: rawBytes)
    }

    /// The key whose 32 raw bytes are `rawBytes`.
    public init(rawBytes: [UInt8]) throws(BundleKeyError) {
        guard rawBytes.count == 32, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawBytes) else {
            throw BundleKeyError("expected a 32-byte Ed25519 public key, got \(rawBytes.count) bytes")
        }
        self.init(key: key)
    }

    /// Reads a public key file; `path` is used in messages.
    public init(contentsOf path: String) throws(BundleKeyError) {
        let fields = try KeyFile.read(path, tag: Self.fileTag, otherTag: BundleKey.fileTag, kind: "public")
        let key: BundlePublicKey
        do {
            key = try BundlePublicKey(rawBytes: fields.bytes)
        } catch {
            throw BundleKeyError("\(path): \(error.message)")
        }
        guard key.keyId == fields.keyId else {
            throw BundleKeyError("\(path): the key id \(fields.keyId) is not this key's (\(key.keyId)); the file was edited")
        }
        self = key
    }

    /// The public key file's text (one line, newline-terminated).
    public var fileText: String {
        "\(Self.fileTag) \(keyId) \(Data(rawBytes).base64EncodedString())\n"
    }

    /// Whether `signature` is this key's Ed25519 signature of exactly `bytes`.
    public func isValidSignature(_ signature: [UInt8], for bytes: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawBytes) else { return false }
        return key.isValidSignature(signature, for: bytes)
    }

    /// The key id of raw public key bytes.
    public static func keyId(of rawBytes: [UInt8]) -> String {
        String(HexDigits.lowercase(SHA256.hash(data: rawBytes)).prefix(16))
    }
}

/// A key file that cannot be read, written or trusted; the message names the file.
public struct BundleKeyError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Reading and writing the one-line key files.
enum KeyFile {
    static func read(_ path: String, tag: String, otherTag: String, kind: String) throws(BundleKeyError) -> (keyId: String, bytes: [UInt8]) {
        let data: [UInt8]
        do {
            data = try FileBytes.contents(of: path)
        } catch {
            throw BundleKeyError(FileSystem.exists(path) ? "\(path): cannot read the key file: \(error.reason)" : "\(path): no such key file")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if words.first == otherTag {
            let wanted = kind == "private" ? "the private key (NAME.key)" : "the public key (NAME.pub)"
            let got = kind == "private" ? "a public key" : "a private key"
            throw BundleKeyError("\(path): is \(got); expected \(wanted)")
        }
        guard words.count == 3, words[0] == tag, let bytes = Data(base64Encoded: words[2]) else {
            throw BundleKeyError("\(path): not a HybridTerm \(kind) key (expected one line \"\(tag) KEYID BASE64\")")
        }
        return (words[1], Array(bytes))
    }

    /// Creates `path` with `mode` (never replacing a file) and writes `text`.
    static func create(_ path: String, text: String, mode: mode_t) throws(BundleKeyError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw BundleKeyError("\(path): cannot create the key file (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        // The umask may have narrowed the mode; the private key must be exactly 0600.
        fchmod(descriptor, mode)
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            unlink(path)
            throw BundleKeyError("\(path): cannot write the key file")
        }
    }
}
