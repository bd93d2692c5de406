import Foundation
import HybridBundles
import HybridFiles
import HybridJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One bundle `hybrid serve` offers, as the index (`GET /`) lists it.
public struct ServedBundle: Sendable, Hashable {
    /// Where the bundle's archive and manifest come from.
    public enum Source: Sendable, Hashable {
        /// A `DIR/NAME.hbundle` file (which wins over a folder of the same name).
        case archive
        /// A `DIR/NAME/` folder with `manifest.json`.
        case folder
    }

    /// The name in its URLs: the file name without `.hbundle`, or the folder's name.
    public var name: String
    /// The manifest's `app`.
    public var app: String
    /// The manifest's `version`, as written.
    public var version: String
    /// Whether it has a `manifest.sig` (present, not verified: clients verify).
    public var isSigned: Bool
    /// Where it comes from.
    public var source: Source
    /// Whether `DIR/NAME/` is a bundle folder, so `/NAME/.files`, `/NAME/.changes` and
    /// `/NAME/PATH` answer (development mode).
    public var hasFolder: Bool

    /// The URL path of its archive (`/NAME.hbundle`), or `nil` for an unsigned folder, which has
    /// none and runs in development mode only.
    public var archivePath: String? {
        source == .archive || isSigned ? "/" + ServedBundle.encoded(name) + ".hbundle" : nil
    }

    /// The URL path of its folder (`/NAME/`).
    public var folderPath: String { "/" + ServedBundle.encoded(name) + "/" }

    /// `name` with what a URL path segment cannot hold percent-encoded.
    static func encoded(_ name: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }
}

/// The folder `hybrid serve` serves: its `NAME.hbundle` files and `NAME/` subfolders holding a
/// `manifest.json`. Looked at anew for every request, so bundles added while serving appear.
struct BundleDirectory: Sendable {
    static let archiveSuffix = ".hbundle"

    /// The folder, absolute with links resolved.
    let root: String

    /// Whether `name` can name a bundle: not empty, not hidden, one path segment, no control
    /// characters or backslashes.
    static func isBundleName(_ name: String) -> Bool {
        !name.hasPrefix(".") && !name.contains("/") && BundlePath.isValid(name)
    }

    /// `DIR/NAME.hbundle` when it is a file.
    func archive(_ name: String) -> String? {
        guard Self.isBundleName(name) else { return nil }
        let path = root + "/" + name + Self.archiveSuffix
        return Self.isFile(path) ? path : nil
    }

    /// `DIR/NAME` when it is a folder holding `manifest.json`.
    func folder(_ name: String) -> String? {
        guard Self.isBundleName(name) else { return nil }
        let path = root + "/" + name
        return Self.isFolder(path) && Self.isFile(path + "/" + BundleFolder.manifestName) ? path : nil
    }

    /// The names of every bundle folder, sorted.
    func folderNames() -> [String] {
        names().filter { folder($0) != nil }
    }

    /// Every bundle, sorted by name, and why any that could not be listed was left out.
    func bundles() -> (bundles: [ServedBundle], problems: [String]) {
        var bundles: [ServedBundle] = []
        var problems: [String] = []
        for name in names() {
            do throws(ServeError) {
                if let bundle = try bundle(name) { bundles.append(bundle) }
            } catch {
                problems.append(error.description)
            }
        }
        return (bundles, problems)
    }

    /// The bundle `name` as the index lists it; `nil` when there is none.
    func bundle(_ name: String) throws(ServeError) -> ServedBundle? {
        let folder = folder(name)
        let manifest: [UInt8]?
        let isSigned: Bool
        let file: String
        if let archive = archive(name) {
            file = "\(name).hbundle: manifest.json"
            manifest = try ArchiveEntries.read(BundleFolder.manifestName, in: archive, limit: BundleVerifier.manifestSizeLimit)
            isSigned = try ArchiveEntries.contains(BundleFolder.signatureName, in: archive)
        } else if let folder {
            file = "\(name)/manifest.json"
            manifest = FileBytes.read(folder + "/" + BundleFolder.manifestName)
            isSigned = Self.isFile(folder + "/" + BundleFolder.signatureName)
        } else {
            return nil
        }
        guard let manifest else { throw ServeError("\(file): missing or unreadable") }
        let (app, version) = try Self.appAndVersion(manifest, file: file)
        return ServedBundle(name: name, app: app, version: version, isSigned: isSigned,
                            source: archive(name) != nil ? .archive : .folder, hasFolder: folder != nil)
    }

    /// The names of the `.hbundle` files and subfolders, without dot-names, sorted by bytes.
    private func names() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        var names = Set<String>()
        for entry in entries where !entry.hasPrefix(".") {
            if entry.hasSuffix(Self.archiveSuffix) {
                names.insert(String(entry.dropLast(Self.archiveSuffix.count)))
            } else {
                names.insert(entry)
            }
        }
        return names.filter(Self.isBundleName).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// `app` and `version` as written; the rest of the manifest is the client's to check.
    private static func appAndVersion(_ bytes: [UInt8], file: String) throws(ServeError) -> (String, String) {
        guard let json = try? JSONParser.parse(bytes), case .object(let object) = json.plain else {
            throw ServeError("\(file): not a JSON object")
        }
        guard case .string(let app)? = object["app"], case .string(let version)? = object["version"] else {
            throw ServeError("\(file): needs \"app\" and \"version\" strings")
        }
        return (app, version)
    }

    static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}

/// Reading single entries of a `.hbundle` ZIP, bounded (`ArchiveReader`): a damaged archive in
/// the served folder is a reported problem, never a request that reads for ever.
enum ArchiveEntries {
    /// The bytes of the file entry `name`, refusing more than `limit`; `nil` when there is none.
    static func read(_ name: String, in archivePath: String, limit: Int) throws(ServeError) -> [UInt8]? {
        do {
            return try ArchiveReader.file(named: name, inArchive: archivePath, limit: limit)
        } catch {
            throw located(error, archivePath)
        }
    }

    /// Whether the archive has a file entry `name`.
    static func contains(_ name: String, in archivePath: String) throws(ServeError) -> Bool {
        do {
            return try ArchiveReader.contains(name, inArchive: archivePath)
        } catch {
            throw located(error, archivePath)
        }
    }

    /// `ARCHIVE: ENTRY: message`, the archive named by its file name.
    private static func located(_ error: BundleError, _ archivePath: String) -> ServeError {
        let archive = FileSystem.lastComponent(of: archivePath)
        return ServeError(error.file == archivePath ? "\(archive): \(error.message)" : "\(archive): \(error)")
    }
}

/// A problem `hybrid serve` reports: what and why, in one line.
public struct ServeError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
