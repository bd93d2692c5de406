import Foundation
import HybridFiles
import HybridJSON

/// A bundle laid out as a folder (SPEC §5): `manifest.json` at the root and every file it
/// names inside the folder. Opening checks the manifest and that the files are there; it does
/// not read screens or scripts, which the runtime loads when it needs them.
///
/// A folder without `manifest.sig` is a development bundle: it runs, and the runtime warns.
public struct BundleFolder: Sendable {
    /// The manifest's file name at a bundle's root.
    public static let manifestName = "manifest.json"
    /// The signature's file name at a bundle's root.
    public static let signatureName = "manifest.sig"

    /// The folder as it was given to `open`, kept for messages (`shop/screens/home.json:3:5`).
    public let path: String
    /// The folder's absolute location, symbolic links resolved.
    public let root: URL
    /// The decoded manifest.
    public let manifest: BundleManifest
    /// Whether the folder has a `manifest.sig`. Only its presence: verifying it against trusted
    /// keys is the job of the signature check, which a signed bundle must pass before it runs.
    public let isSigned: Bool

    /// The absolute URL of a file inside the bundle, or `nil` when `relativePath` breaks the
    /// bundle path rules (absolute, `..`, backslashes), so a path from a script cannot escape.
    public func url(for relativePath: String) -> URL? {
        guard BundlePath.isValid(relativePath) else { return nil }
        return root.appendingPathComponent(relativePath)
    }

    /// The file path of a file inside the bundle, under the folder as it was given (so
    /// diagnostics read `shop/screens/home.json:…`); `nil` when `relativePath` breaks the
    /// bundle path rules.
    public func filePath(for relativePath: String) -> String? {
        guard BundlePath.isValid(relativePath) else { return nil }
        return FileSystem.join(path, relativePath)
    }

    /// The file path of the screen document named `name` in `screens`, ready for
    /// `ScreenDocument.load(contentsOf:)`; `nil` when the manifest has no such screen.
    public func screenPath(named name: String) -> String? {
        manifest.screens[name].flatMap(filePath(for:))
    }

    /// The file paths of the bundle's scripts: every `.js` file packing would list (dotfiles,
    /// keys and what `.hbundleignore` names are not the bundle's), in bundle-path order.
    public var scriptPaths: [String] {
        ((try? BundleContents.files(in: path)) ?? []).filter { $0.hasSuffix(".js") }.compactMap(filePath(for:))
    }

    /// Opens the bundle folder at `path`: reads and decodes `manifest.json` and checks that
    /// every file it names exists inside the folder, reporting every problem found, located in
    /// `manifest.json` (problems with the folder itself, missing or without a manifest, at `$`).
    /// The bundle is `nil` when any error was found, since half a bundle cannot run.
    public static func open(_ path: String) -> Loaded<BundleFolder> {
        let manifestPath = FileSystem.join(path, manifestName)
        let emptySource = SourceText(name: manifestPath, bytes: [])
        func failure(_ message: String) -> Loaded<BundleFolder> {
            Loaded(value: nil, diagnostics: [Diagnostic(offset: 0, path: "$", message: message)], source: emptySource)
        }
        switch FileSystem.kind(path) {
        case .folder: break
        case .missing: return failure("no bundle folder at \"\(path)\"")
        case .file, .other: return failure("\"\(path)\" is not a folder; a bundle folder holds manifest.json")
        }
        guard let rootPath = FileSystem.resolved(path) else { return failure("cannot resolve the bundle folder \"\(path)\"") }
        guard FileSystem.exists(manifestPath) else { return failure("the bundle folder has no manifest.json") }

        let (load, references) = BundleManifest.decode(contentsOf: manifestPath)
        var diagnostics = load.diagnostics
        var checked: [String: String?] = [:]
        for reference in references {
            let problem: String?
            if let known = checked[reference.path] {
                problem = known
            } else {
                problem = Self.problem(with: reference.path, in: rootPath)
                checked[reference.path] = problem
            }
            if let problem {
                diagnostics.append(Diagnostic(offset: reference.offset, path: reference.jsonPath, message: problem))
            }
        }
        diagnostics = diagnostics.enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)

        let hasErrors = diagnostics.contains { $0.severity == .error }
        guard !hasErrors, let manifest = load.value else {
            return Loaded(value: nil, diagnostics: diagnostics, source: load.source)
        }
        let bundle = BundleFolder(
            path: path, root: URL(fileURLWithPath: rootPath, isDirectory: true), manifest: manifest,
            isSigned: FileSystem.exists(FileSystem.join(rootPath, signatureName))
        )
        return Loaded(value: bundle, diagnostics: diagnostics, source: load.source)
    }

    /// What is wrong with the file at bundle path `relative` under the resolved `root`: missing,
    /// not a regular file, or (through a symbolic link) outside the folder.
    static func problem(with relative: String, in root: String) -> String? {
        let full = FileSystem.join(root, relative)
        guard let resolved = FileSystem.resolved(full) else {
            if FileSystem.isLink(full), let target = FileSystem.linkTarget(full) {
                return "\"\(relative)\" is a symbolic link to \"\(target)\", which does not exist"
            }
            return "file \"\(relative)\" does not exist in the bundle folder"
        }
        guard resolved.hasPrefix(root == "/" ? "/" : root + "/") else {
            return "\"\(relative)\" leaves the bundle folder through a symbolic link (to \"\(resolved)\")"
        }
        switch FileSystem.kind(resolved) {
        case .file: return nil
        case .folder: return "\"\(relative)\" is a folder; expected a file"
        case .missing, .other: return "\"\(relative)\" is not a regular file"
        }
    }
}
