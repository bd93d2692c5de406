import ArgumentParser
import Foundation
import HybridAppRunner
import HybridTerm

/// `hybrid bundle keygen | pack | verify` (SPEC §5–6): keys, signing and checking bundles.
struct BundleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Make signing keys, sign and archive bundle folders, and verify signed bundles.",
        subcommands: [Keygen.self, Pack.self, Verify.self]
    )

    /// `hybrid bundle keygen NAME [--out-dir DIR]`: writes `NAME.key` (0600) and `NAME.pub`.
    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keygen",
            abstract: "Make an Ed25519 key pair: NAME.key (private, mode 0600) and NAME.pub (public).",
            discussion: "Each file is one line: `hybridterm-ed25519-private|public KEYID BASE64`. Existing keys are never overwritten."
        )

        @Argument(help: "The key's name; the files are NAME.key and NAME.pub (NAME may be a path without --out-dir).")
        var name: String

        @Option(name: .customLong("out-dir"), help: "The folder to write the key files to (default: the current folder); NAME is then a file name, without a folder.")
        var outDir: String?

        func validate() throws {
            guard !name.isEmpty, !name.hasSuffix("/") else { throw ValidationError("NAME must name a file, got \"\(name)\"") }
            // With --out-dir the keys go into that folder: a folder in NAME (`../escape`) would
            // put them somewhere else than the user asked.
            if let outDir, name.contains("/") {
                throw ValidationError("with --out-dir, NAME is a file name without a folder, got \"\(name)\"; the keys go into \(outDir)/")
            }
        }

        func run() throws {
            let base = outDir.map { FileSystem.join($0, name) } ?? name
            let key = BundleKey()
            do {
                try FileSystem.createFolder(FileSystem.parentFolder(of: base))
                let paths = try key.write(to: base)
                print("wrote \(paths.privateKey) (private: keep it secret) and \(paths.publicKey) (public: give it to hosts); key id \(key.keyId)")
            } catch {
                throw UserFailure.reporting("hybrid bundle keygen: \(error)")
            }
        }
    }

    /// `hybrid bundle pack DIR --key NAME.key [--out F.hbundle]`.
    struct Pack: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pack",
            abstract: "Sign a bundle folder in place (every file's sha256 and size in manifest.json's files, and manifest.sig), or with --out into a .hbundle archive, leaving the folder as it is."
        )

        @Argument(help: "The bundle folder (holding manifest.json).")
        var folder: String

        @Option(help: "The private key file (NAME.key) to sign with.")
        var key: String

        @Option(help: "Write the signed bundle as this .hbundle archive (outside the folder) instead of signing the folder.")
        var out: String?

        func validate() throws {
            if let out, !out.hasSuffix(".hbundle") {
                throw ValidationError("--out names a .hbundle archive, got \"\(out)\"")
            }
        }

        func run() throws {
            let signingKey: BundleKey
            do {
                signingKey = try BundleKey(contentsOf: key)
            } catch {
                throw UserFailure.reporting("hybrid bundle pack: \(error)")
            }
            do {
                let result = try BundleSigner(key: signingKey).pack(folder: folder, archivePath: out)
                let count = result.files.count
                let listed = "\(count) file\(count == 1 ? "" : "s") listed, key id \(signingKey.keyId)"
                if let archive = result.archivePath {
                    print("wrote \(archive), signed: \(listed) (\(folder) unchanged)")
                } else {
                    print("signed \(folder): \(listed)")
                }
                // Saying what stayed out lets a packer see that a key or a repository was not shipped,
                // and notice a file they meant to ship.
                if !result.leftOut.isEmpty {
                    var shown = result.leftOut.prefix(8).map { "\($0.path) (\($0.reason))" }
                    if result.leftOut.count > 8 { shown.append("and \(result.leftOut.count - 8) more") }
                    print("left out: " + shown.joined(separator: ", "))
                }
            } catch {
                throw UserFailure.reporting(BundleCommand.located(error, target: folder, isArchive: false))
            }
        }
    }

    /// `hybrid bundle verify TARGET --pubkey NAME.pub`.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check a signed bundle folder or .hbundle archive against trusted public keys; name the first file that fails.",
            discussion: "Exit status 0 when the bundle is intact and signed by a trusted key, 1 otherwise."
        )

        @Argument(help: "A bundle folder or a .hbundle archive.")
        var target: String

        @Option(name: .customLong("pubkey"), help: "A trusted public key file (NAME.pub); repeat to trust several.")
        var publicKeys: [String]

        func validate() throws {
            if publicKeys.isEmpty { throw ValidationError("missing --pubkey NAME.pub: a bundle is verified against trusted keys") }
        }

        func run() throws {
            let keys = try RunOptions.readKeys(publicKeys)
            let isFolder = FileManager.default.fileExists(atPath: target) && (try? FileManager.default.attributesOfItem(atPath: target)[.type] as? FileAttributeType) == .typeDirectory
            do {
                let verified = try BundleVerifier(trustedKeys: keys).verify(target)
                verified.removeStaging()
                let count = verified.manifest.files?.count ?? 0
                print("\(target): ok (\(verified.manifest.app) \(verified.manifest.version), \(count) file\(count == 1 ? "" : "s"), signed by key \(verified.keyId))")
            } catch {
                throw UserFailure.reporting(BundleCommand.located(error, target: target, isArchive: !isFolder))
            }
        }
    }

    /// A bundle error's lines, each located under the target: `DIR/FILE: …` for a folder,
    /// `F.hbundle: FILE: …` for an archive.
    static func located(_ error: BundleError, target: String, isArchive: Bool) -> String {
        guard error.file != target else { return error.description }
        return error.description.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            isArchive ? "\(target): \(line)" : FileSystem.join(target, String(line))
        }.joined(separator: "\n")
    }
}
