import Crypto
import Foundation
import HybridFiles
import HybridJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks a signed bundle — a folder or a `.hbundle` archive — against trusted public keys
/// (SPEC §5), stopping at the first problem and naming its file:
///
/// 1. archives only: every entry is a regular file or folder (no symbolic links) whose name
///    follows the `BundlePath` rules (no `..`, no absolute paths), each named once;
/// 2. `manifest.sig` names a trusted key, and its signature matches `manifest.json`'s exact bytes;
/// 3. the manifest decodes, has `files`, and every file it names (screens, entry, patches) is
///    listed there;
/// 4. every listed file, in byte order of its path, exists with the listed size and SHA-256;
/// 5. no other file is in the bundle (and, in a folder, no symbolic link or device).
///
/// An archive is read through `ArchiveReader`, every read bounded: the two small signed files
/// first (capped), and nothing else inflated before the signature holds; then each listed file
/// is unpacked into a new staging folder as it is checked (streamed from its own compressed
/// bytes, never past its listed size), so what was checked is what is on disk: a caller installs a
/// `VerifiedBundle` by renaming its `root` into place, and choosing `stagingParent` on the same
/// file system as the destination keeps that rename atomic.
public struct BundleVerifier: Sendable {
    /// The largest `manifest.json` read from an archive.
    public static let manifestSizeLimit = 4 << 20
    /// The largest `manifest.sig` read from an archive.
    public static let signatureSizeLimit = 64 << 10

    /// The keys whose signatures are accepted.
    public var trustedKeys: [BundlePublicKey]

    /// A verifier trusting `trustedKeys`.
    public init(trustedKeys: [BundlePublicKey]) {
        self.trustedKeys = trustedKeys
    }

    /// Verifies a folder or (any other file) an archive; archives are staged under
    /// `stagingParent` (the system's temporary folder by default).
    public func verify(_ target: String, stagingParent: String? = nil) throws(BundleError) -> VerifiedBundle {
        switch FileSystem.kind(target) {
        case .folder: return try verifyFolder(target)
        case .file: return try verifyArchive(target, stagingParent: stagingParent)
        case .missing: throw BundleError(.unreadable, file: target, "no such bundle folder or archive")
        case .other: throw BundleError(.unreadable, file: target, "is neither a bundle folder nor an archive")
        }
    }

    /// Checks that `signatureBytes` (a `manifest.sig`, `nil` when there is none) is a trusted
    /// key's signature of exactly `manifestBytes`, then decodes the manifest; returns it with
    /// the signing key's id.
    public func verifyManifest(_ manifestBytes: [UInt8], signature signatureBytes: [UInt8]?) throws(BundleError) -> (manifest: BundleManifest, keyId: String) {
        guard let signatureBytes else {
            throw BundleError(.missingSignature, file: BundleFolder.signatureName, "missing; the bundle is not signed (sign it with `hybrid bundle pack`)")
        }
        let signature = try BundleSignature(parsing: signatureBytes)
        guard let key = trustedKeys.first(where: { $0.keyId == signature.keyId }) else {
            let trusted = trustedKeys.isEmpty ? "no key is trusted" : "trusted: " + trustedKeys.map(\.keyId).joined(separator: ", ")
            throw BundleError(.untrustedKey, file: BundleFolder.signatureName, "signed by key \(signature.keyId), which is not trusted (\(trusted))")
        }
        guard key.isValidSignature(signature.signature, for: manifestBytes) else {
            throw BundleError(.signatureMismatch, file: BundleFolder.signatureName,
                              "the signature does not match manifest.json (changed after signing, or signed by another key with the same id)")
        }
        let (load, references) = BundleManifest.decode(SourceText(name: BundleFolder.manifestName, bytes: manifestBytes))
        guard let manifest = load.value else {
            throw BundleError(.invalidManifest, load.formattedDiagnostics.joined(separator: "\n"))
        }
        guard let files = manifest.files else {
            throw BundleError(.invalidManifest, file: BundleFolder.manifestName, "has no \"files\"; a signed bundle lists every file (`hybrid bundle pack` writes them)")
        }
        for reference in references where files[reference.path] == nil {
            throw BundleError(.invalidManifest, file: BundleFolder.manifestName, "\(reference.jsonPath) names \"\(reference.path)\", which is not listed in \"files\"")
        }
        return (manifest, signature.keyId)
    }

    // MARK: Folders

    /// Verifies a bundle folder in place.
    public func verifyFolder(_ path: String) throws(BundleError) -> VerifiedBundle {
        guard FileSystem.kind(path) == .folder, let root = FileSystem.resolved(path) else {
            throw BundleError(.unreadable, file: path, FileSystem.exists(path) ? "is not a folder" : "no such bundle folder")
        }
        let manifestPath = FileSystem.join(root, BundleFolder.manifestName)
        let signaturePath = FileSystem.join(root, BundleFolder.signatureName)
        for (name, full) in [(BundleFolder.manifestName, manifestPath), (BundleFolder.signatureName, signaturePath)] where FileSystem.isLink(full) {
            throw BundleError(.symbolicLink, file: name, "is a symbolic link; a signed bundle holds regular files only")
        }
        guard FileSystem.exists(manifestPath), let manifestBytes = FileBytes.read(manifestPath) else {
            throw BundleError(.invalidManifest, file: BundleFolder.manifestName, FileSystem.exists(manifestPath) ? "cannot read the file" : "missing; a bundle folder holds manifest.json")
        }
        let signatureBytes = FileSystem.exists(signaturePath) ? FileBytes.read(signaturePath) : nil
        if FileSystem.exists(signaturePath) && signatureBytes == nil {
            throw BundleError(.unreadable, file: BundleFolder.signatureName, "cannot read the file")
        }
        let (manifest, keyId) = try verifyManifest(manifestBytes, signature: signatureBytes)
        let present = Set(try BundleContents.files(in: root))
        let listed = manifest.files ?? [:]
        for path in listed.keys.sorted(by: BundleContents.byteOrder) {
            guard present.contains(path) else {
                throw BundleError(.missingFile, file: path, "listed in the manifest but missing from the bundle")
            }
            let actual = try BundleContents.digest(of: FileSystem.join(root, path), file: path)
            try Self.compare(actual, with: listed[path]!, file: path)
        }
        if let extra = present.filter({ listed[$0] == nil }).sorted(by: BundleContents.byteOrder).first {
            throw BundleError(.unlistedFile, file: extra, "is not listed in the manifest's files")
        }
        return VerifiedBundle(root: root, manifest: manifest, manifestBytes: manifestBytes, keyId: keyId, isStaged: false)
    }

    private static func compare(_ actual: BundleManifest.FileEntry, with expected: BundleManifest.FileEntry, file: String) throws(BundleError) {
        guard actual.size == expected.size else {
            throw BundleError(.sizeMismatch, file: file, "size \(actual.size) differs from the manifest's \(expected.size)")
        }
        guard actual.sha256 == expected.sha256 else {
            throw BundleError(.digestMismatch, file: file, "SHA-256 \(actual.sha256) differs from the manifest's \(expected.sha256)")
        }
    }

    // MARK: Archives

    /// Verifies a `.hbundle` archive, unpacking it into a new folder under `stagingParent`
    /// (the system's temporary folder by default). On failure nothing is left behind.
    ///
    /// Every read is bounded: `manifest.json` and `manifest.sig` (small, capped) are read and the
    /// signature checked first, before any other entry is touched; then each listed file is
    /// inflated from its own compressed bytes and never past the size the signed manifest lists.
    public func verifyArchive(_ path: String, stagingParent: String? = nil) throws(BundleError) -> VerifiedBundle {
        guard FileSystem.kind(path) == .file else {
            throw BundleError(.unreadable, file: path, FileSystem.exists(path) ? "is not a file" : "no such archive")
        }
        let archive = try ArchiveReader.open(path: path)
        defer { archive.close() }
        return try verify(archive, stagingParent: stagingParent)
    }

    /// `verifyArchive` on an archive's bytes in memory (a fuzz target's input, say), named
    /// `name` in messages; never traps, whatever the bytes.
    public func verifyArchive(bytes: [UInt8], name: String = "archive.hbundle", stagingParent: String? = nil) throws(BundleError) -> VerifiedBundle {
        try verify(try ArchiveReader(bytes: bytes, name: name), stagingParent: stagingParent)
    }

    private func verify(_ archive: ArchiveReader, stagingParent: String?) throws(BundleError) -> VerifiedBundle {
        let entries = try Self.fileEntries(of: archive)
        let manifestBytes = try Self.read(entries[BundleFolder.manifestName], of: archive, name: BundleFolder.manifestName, limit: Self.manifestSizeLimit)
        guard let manifestBytes else {
            throw BundleError(.invalidManifest, file: BundleFolder.manifestName, "missing from the archive")
        }
        let signatureBytes = try Self.read(entries[BundleFolder.signatureName], of: archive, name: BundleFolder.signatureName, limit: Self.signatureSizeLimit)
        let (manifest, keyId) = try verifyManifest(manifestBytes, signature: signatureBytes)
        let listed = manifest.files ?? [:]

        let staging = try Self.makeStagingFolder(in: stagingParent)
        do throws(BundleError) {
            for path in listed.keys.sorted(by: BundleContents.byteOrder) {
                guard let entry = entries[path] else {
                    throw BundleError(.missingFile, file: path, "listed in the manifest but missing from the archive")
                }
                let actual = try Self.extract(entry, of: archive, to: staging, limit: listed[path]!.size)
                try Self.compare(actual, with: listed[path]!, file: path)
            }
            let extras = entries.keys.filter { listed[$0] == nil && $0 != BundleFolder.manifestName && $0 != BundleFolder.signatureName }
            if let extra = extras.sorted(by: BundleContents.byteOrder).first {
                throw BundleError(.unlistedFile, file: extra, "is not listed in the manifest's files")
            }
            try Self.writeFile(manifestBytes, at: FileSystem.join(staging, BundleFolder.manifestName), name: BundleFolder.manifestName)
            try Self.writeFile(signatureBytes ?? [], at: FileSystem.join(staging, BundleFolder.signatureName), name: BundleFolder.signatureName)
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
        return VerifiedBundle(root: staging, manifest: manifest, manifestBytes: manifestBytes, keyId: keyId, isStaged: true)
    }

    /// The archive's file entries by bundle path, after checking every entry's type and name.
    private static func fileEntries(of archive: ArchiveReader) throws(BundleError) -> [String: ArchiveReader.Entry] {
        var files: [String: ArchiveReader.Entry] = [:]
        var folders: Set<String> = []
        for entry in archive.entries {
            let name = entry.name
            switch entry.kind {
            case .link:
                throw BundleError(.symbolicLink, file: name, "is a symbolic link; archives may hold regular files and folders only")
            case .folder:
                let folder = name.hasSuffix("/") ? String(name.dropLast()) : name
                if let problem = BundlePath.problem(with: folder) { throw BundleError(.unsafePath, file: name, problem) }
                folders.insert(folder)
            case .file:
                if let problem = BundlePath.problem(with: name) { throw BundleError(.unsafePath, file: name, problem) }
                guard files[name] == nil else {
                    throw BundleError(.damagedArchive, file: name, "appears twice in the archive")
                }
                files[name] = entry
            }
        }
        if let clash = files.keys.sorted(by: BundleContents.byteOrder).first(where: { folders.contains($0) }) {
            throw BundleError(.damagedArchive, file: clash, "is both a file and a folder in the archive")
        }
        return files
    }

    /// A small entry's bytes, refusing more than `limit`; `nil` when there is no entry.
    private static func read(_ entry: ArchiveReader.Entry?, of archive: ArchiveReader, name: String, limit: Int) throws(BundleError) -> [UInt8]? {
        guard let entry else { return nil }
        return try archive.contents(of: entry, name: name, limit: limit, tooLarge: BundleError(.invalidManifest, file: name, "is larger than \(limit) bytes"))
    }

    /// Streams a file entry into `staging`, hashing as it goes and stopping once it passes
    /// `limit` bytes (the listed size), so a lying archive cannot fill the disk.
    private static func extract(_ entry: ArchiveReader.Entry, of archive: ArchiveReader, to staging: String, limit: Int) throws(BundleError) -> BundleManifest.FileEntry {
        let name = entry.name
        let destination = FileSystem.join(staging, name)
        do throws(FileError) {
            try FileSystem.createFolder(FileSystem.parentFolder(of: destination))
        } catch {
            throw BundleError(.cannotWrite, file: name, "cannot create its folder in the staging folder")
        }
        let descriptor = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BundleError(.cannotWrite, file: name, "cannot create it in the staging folder (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        var hasher = SHA256()
        var size = 0
        do throws(ArchiveReader.ReadFailure) {
            try archive.read(entry, limit: limit) { chunk in
                size += chunk.count
                hasher.update(data: chunk)
                try chunk.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                    var offset = 0
                    while offset < buffer.count {
                        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        guard written > 0 else { throw WriteFailed() }
                        offset += written
                    }
                }
            }
        } catch {
            switch error {
            case .tooLarge(let stated):
                let said = stated > limit ? "\(stated)" : "more than \(limit)"
                throw BundleError(.sizeMismatch, file: name, "size \(said) differs from the manifest's \(limit)")
            case .damaged(let reason): throw BundleError(.damagedArchive, file: name, "cannot be read from the archive: \(reason)")
            case .consumer: throw BundleError(.cannotWrite, file: name, "cannot write it to the staging folder")
            }
        }
        return BundleManifest.FileEntry(sha256: HexDigits.lowercase(hasher.finalize()), size: size)
    }

    private struct WriteFailed: Error {}

    private static func writeFile(_ bytes: [UInt8], at path: String, name: String) throws(BundleError) {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw BundleError(.cannotWrite, file: name, "cannot write it to the staging folder")
        }
    }

    /// A new, empty, private folder `PARENT/.hbundle-staging-XXXXXX`.
    private static func makeStagingFolder(in parent: String?) throws(BundleError) -> String {
        let base = parent ?? NSTemporaryDirectory()
        var template = Array(FileSystem.join(base, ".hbundle-staging-XXXXXX").utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BundleError(.cannotWrite, file: base, "cannot create a staging folder (\(String(cString: strerror(errno))))")
        }
        return String(cString: created)
    }
}

/// A bundle that passed `BundleVerifier`: its manifest, the signing key, and the folder holding
/// exactly the checked bytes — the folder itself, or for an archive the staging folder it was
/// unpacked into (the caller's to rename into an install location or to remove).
public struct VerifiedBundle: Sendable {
    /// The folder holding the verified files (absolute, links resolved).
    public let root: String
    /// The decoded manifest, `files` included.
    public let manifest: BundleManifest
    /// `manifest.json`'s exact, signed bytes.
    public let manifestBytes: [UInt8]
    /// The id of the trusted key that signed it.
    public let keyId: String
    /// Whether `root` is a staging folder made for an archive (the caller removes or renames it).
    public let isStaged: Bool

    /// Removes the staging folder; does nothing for a verified folder.
    public func removeStaging() {
        if isStaged { try? FileManager.default.removeItem(atPath: root) }
    }
}
