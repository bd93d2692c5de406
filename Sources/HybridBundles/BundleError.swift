/// Why packing or verifying a bundle failed: one problem, naming the file it is about.
///
/// `description` reads `FILE: message` (`screens/home.json: size 120 differs from the manifest's
/// 118`, `manifest.sig: signed by key 3f2a… which is not trusted`), where `FILE` is a bundle path
/// or, for an archive, the entry's name as stored. `kind` lets a caller (the runtime installing
/// a download) tell the reasons apart without reading messages.
public struct BundleError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The reason, in categories a caller may act on.
    public enum Kind: Sendable, Equatable {
        /// The target is missing, unreadable or not a bundle at all.
        case unreadable
        /// `manifest.json` is missing, broken, or has no `files`.
        case invalidManifest
        /// There is no `manifest.sig`.
        case missingSignature
        /// `manifest.sig` is not `{"keyId", "alg": "ed25519", "sig"}`.
        case invalidSignatureFile
        /// The signature names a key that is not among the trusted ones.
        case untrustedKey
        /// The signature does not match `manifest.json`'s bytes.
        case signatureMismatch
        /// A file listed in `files` is not in the bundle.
        case missingFile
        /// A file in the bundle is not listed in `files`.
        case unlistedFile
        /// A file's size differs from its `files` entry.
        case sizeMismatch
        /// A file's SHA-256 differs from its `files` entry.
        case digestMismatch
        /// A path breaks the bundle path rules (absolute, `..`, backslashes…).
        case unsafePath
        /// A symbolic link where only regular files may be.
        case symbolicLink
        /// Something that is neither a file nor a folder (a device, a pipe).
        case notRegularFile
        /// The archive cannot be read: truncated, damaged, or not a ZIP file.
        case damagedArchive
        /// Writing the manifest, signature, archive or staging folder failed.
        case cannotWrite
        /// The bundle is another app than the one being installed or run.
        case wrongApp
        /// The version is not newer than the installed one (or is the same version with other
        /// content).
        case notNewer
        /// The version failed to start once and is never launched again.
        case markedBad
        /// Downloading failed: no answer, an HTTP error, a truncated body.
        case download
        /// A download is larger than its manifest allows.
        case tooLarge
    }

    /// The reason's category.
    public var kind: Kind
    /// The bundle path or archive entry the problem is about; `nil` for the bundle as a whole.
    public var file: String?
    /// What is wrong, without the file.
    public var message: String

    /// A problem with `file` (or the whole bundle when `nil`).
    public init(_ kind: Kind, file: String? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.message = message
    }

    /// `FILE: message`, or the message alone.
    public var description: String { file.map { "\($0): \(message)" } ?? message }
}
