import Foundation
import HybridFiles
import HybridJSON
import ZIPFoundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `hybrid bundle pack`: lists every file of a bundle folder in its manifest's `files` (SHA-256
/// and size), signs the new `manifest.json` with a `BundleKey` into `manifest.sig`, and can
/// write the folder as a `.hbundle` ZIP archive.
///
/// Everything else in the manifest is kept as written, members in their order; `files` is
/// replaced where it stands (or added at the end). Symbolic links, devices and paths breaking
/// `BundlePath` rules refuse the pack, as does a manifest with errors.
public struct BundleSigner: Sendable {
    /// What a pack produced.
    public struct Result: Sendable {
        /// The manifest as written, `files` filled in.
        public var manifest: BundleManifest
        /// The exact bytes written to `manifest.json` (the signed bytes).
        public var manifestBytes: [UInt8]
        /// The signature written to `manifest.sig`.
        public var signature: BundleSignature
        /// The bundle paths listed in `files`, in byte order.
        public var files: [String]
        /// The archive written, when one was asked for.
        public var archivePath: String?
        /// What the folder holds that the bundle does not (dotfiles, private keys, what
        /// `.hbundleignore` names): bundle path (a folder's ending in `/`) and why.
        public var leftOut: [(path: String, reason: String)] = []
    }

    /// The key that signs.
    public var key: BundleKey

    /// A signer with `key`.
    public init(key: BundleKey) {
        self.key = key
    }

    /// Signs the bundle folder at `folder` in place (rewriting `manifest.json` and writing
    /// `manifest.sig`), then, when `archivePath` is given, writes the folder as a ZIP archive
    /// there (outside the folder), checked by verifying it with the key before it is renamed
    /// into place.
    public func pack(folder: String, archivePath: String? = nil) throws(BundleError) -> Result {
        guard FileSystem.kind(folder) == .folder, let root = FileSystem.resolved(folder) else {
            throw BundleError(.unreadable, file: folder, FileSystem.exists(folder) ? "is not a folder" : "no such bundle folder")
        }
        if let archivePath { try Self.checkOutside(root: root, archivePath: archivePath) }

        // The manifest must be sound apart from `files`, which is about to be rewritten.
        let load = BundleFolder.open(root)
        let manifestPath = FileSystem.join(root, BundleFolder.manifestName)
        let problems = zip(load.diagnostics, load.formattedDiagnostics)
            .filter { $0.0.severity == .error && !Self.isUnderFiles($0.0.path) }
            .map { $0.1.replacingOccurrences(of: manifestPath, with: BundleFolder.manifestName) }
        if !problems.isEmpty || load.diagnostics.isEmpty && load.value == nil {
            let message = problems.isEmpty ? "cannot open the bundle" : problems.joined(separator: "\n")
            throw BundleError(.invalidManifest, message)
        }
        guard let original = FileBytes.read(manifestPath), case .object(var object)? = try? JSONParser.parse(original).plain else {
            throw BundleError(.invalidManifest, file: BundleFolder.manifestName, "cannot read the manifest")
        }

        let listing = try BundleContents.listing(in: root)
        let paths = listing.files
        var files: [(String, JSONValue)] = []
        for path in paths {
            let entry = try BundleContents.digest(of: FileSystem.join(root, path), file: path)
            files.append((path, .object(JSONObject([("sha256", .string(entry.sha256)), ("size", .integer(entry.size))]))))
        }
        object["files"] = .object(JSONObject(files))
        let bytes = Array(ManifestText.pretty(.object(object)).utf8)
        let check = BundleManifest.load(SourceText(name: BundleFolder.manifestName, bytes: bytes))
        guard let manifest = check.value else {
            throw BundleError(.invalidManifest, check.formattedDiagnostics.joined(separator: "\n"))
        }
        let signature = BundleSignature(signing: bytes, with: key)
        let signed = SignedFiles(manifest: bytes, signature: Array(signature.fileText.utf8))
        var result = Result(manifest: manifest, manifestBytes: bytes, signature: signature, files: paths, archivePath: nil,
                            leftOut: listing.leftOut)
        if let archivePath {
            // The signed manifest goes into the archive only: the source folder stays as it was.
            try writeArchive(root: root, signed: signed, files: paths, to: archivePath)
            result.archivePath = archivePath
        } else {
            try Self.write(signed.manifest, to: manifestPath, file: BundleFolder.manifestName)
            try Self.write(signed.signature, to: FileSystem.join(root, BundleFolder.signatureName), file: BundleFolder.signatureName)
        }
        return result
    }

    /// `$.files` and everything under it.
    private static func isUnderFiles(_ path: String) -> Bool {
        path == "$.files" || path.hasPrefix("$.files.") || path.hasPrefix("$.files[")
    }

    /// An archive inside the folder would end up listed in (or racing with) its own bundle.
    private static func checkOutside(root: String, archivePath: String) throws(BundleError) {
        let parent = FileSystem.parentFolder(of: archivePath)
        guard let resolvedParent = FileSystem.resolved(parent) else {
            throw BundleError(.cannotWrite, file: archivePath, "the folder \"\(parent)\" does not exist")
        }
        if resolvedParent == root || resolvedParent.hasPrefix(root == "/" ? "/" : root + "/") {
            throw BundleError(.cannotWrite, file: archivePath, "is inside the bundle folder; write the archive elsewhere")
        }
    }

    private static func write(_ bytes: [UInt8], to path: String, file: String) throws(BundleError) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw BundleError(.cannotWrite, file: file, "cannot write the file: \(error.localizedDescription)")
        }
    }

    /// A fixed date for every entry, so packing the same folder twice gives the same archive.
    static let entryDate = Date(timeIntervalSince1970: 946_684_800)

    /// Writes an already signed bundle folder (one with `manifest.sig`) as a `.hbundle` ZIP
    /// archive at `archivePath` (outside the folder), entry for entry as `pack` writes it:
    /// `manifest.json`, `manifest.sig`, then every other file in byte order of its path, each with
    /// the same fixed date and permissions, so the same folder always gives the same bytes.
    ///
    /// Nothing is signed or verified: the folder's files go in as they are (a folder changed
    /// since it was signed gives an archive that fails verification, as it should). The archive
    /// is written beside `archivePath` and renamed into place. Symbolic links, devices and
    /// paths breaking `BundlePath` rules refuse it, as in `pack`.
    public static func writeArchive(ofSignedFolder folder: String, to archivePath: String) throws(BundleError) {
        guard FileSystem.kind(folder) == .folder, let root = FileSystem.resolved(folder) else {
            throw BundleError(.unreadable, file: folder, FileSystem.exists(folder) ? "is not a folder" : "no such bundle folder")
        }
        try checkOutside(root: root, archivePath: archivePath)
        for name in [BundleFolder.manifestName, BundleFolder.signatureName] {
            let path = FileSystem.join(root, name)
            if FileSystem.isLink(path) {
                throw BundleError(.symbolicLink, file: name, "is a symbolic link; a signed bundle holds regular files only")
            }
            guard FileSystem.kind(path) == .file else {
                throw BundleError(name == BundleFolder.signatureName ? .missingSignature : .invalidManifest, file: name,
                                  "missing; the folder is not a signed bundle (sign it with `hybrid bundle pack`)")
            }
        }
        let files = try BundleContents.files(in: root)
        let temporary = temporaryPath(beside: archivePath)
        defer { unlink(temporary) }
        try writeEntries(root: root, signed: nil, files: files, to: temporary, archivePath: archivePath)
        try moveIntoPlace(temporary, archivePath)
    }

    /// A manifest and its signature made in memory.
    private struct SignedFiles {
        var manifest: [UInt8]
        var signature: [UInt8]
    }

    /// Writes `signed` and the folder's `files` to a new ZIP at `archivePath` (through a
    /// temporary file beside it), verifies it, and renames it into place.
    private func writeArchive(root: String, signed: SignedFiles, files: [String], to archivePath: String) throws(BundleError) {
        let temporary = Self.temporaryPath(beside: archivePath)
        defer { unlink(temporary) }
        try Self.writeEntries(root: root, signed: signed, files: files, to: temporary, archivePath: archivePath)
        // What was written is what a host will see: check it the way a host will.
        let verified = try BundleVerifier(trustedKeys: [key.publicKey]).verifyArchive(temporary)
        verified.removeStaging()
        try Self.moveIntoPlace(temporary, archivePath)
    }

    /// A fresh temporary path beside `archivePath` (removed if it was left over).
    private static func temporaryPath(beside archivePath: String) -> String {
        let temporary = archivePath + ".partial-\(getpid())"
        unlink(temporary)
        return temporary
    }

    /// Writes `manifest.json`, `manifest.sig` (`signed`, or the folder's own) and `files` of the
    /// folder `root` as a new ZIP at `path`; errors name `archivePath`.
    private static func writeEntries(root: String, signed: SignedFiles?, files: [String], to path: String, archivePath: String) throws(BundleError) {
        do {
            let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
            if let signed {
                for (name, bytes) in [(BundleFolder.manifestName, signed.manifest), (BundleFolder.signatureName, signed.signature)] {
                    try archive.addEntry(
                        with: name, type: .file, uncompressedSize: Int64(bytes.count), modificationDate: Self.entryDate,
                        permissions: 0o644, compressionMethod: .deflate
                    ) { position, chunk in
                        Data(bytes[Int(position)..<min(bytes.count, Int(position) + chunk)])
                    }
                }
            }
            let fromFolder = signed == nil ? [BundleFolder.manifestName, BundleFolder.signatureName] + files : files
            for path in fromFolder {
                let url = URL(fileURLWithPath: FileSystem.join(root, path))
                let handle = try FileHandle(forReadingFrom: url)
                defer { try? handle.close() }
                let size = try handle.seekToEnd()
                try handle.seek(toOffset: 0)
                try archive.addEntry(
                    with: path, type: .file, uncompressedSize: Int64(size), modificationDate: Self.entryDate,
                    permissions: 0o644, compressionMethod: .deflate
                ) { position, chunk in
                    try handle.seek(toOffset: UInt64(position))
                    return try handle.read(upToCount: chunk) ?? Data()
                }
            }
        } catch {
            throw BundleError(.cannotWrite, file: archivePath, "cannot write the archive: \(error)")
        }
    }

    private static func moveIntoPlace(_ temporary: String, _ archivePath: String) throws(BundleError) {
        guard rename(temporary, archivePath) == 0 else {
            throw BundleError(.cannotWrite, file: archivePath, "cannot write the archive: \(String(cString: strerror(errno)))")
        }
    }
}
