import ArgumentParser
import Foundation
import HybridAppRunner

/// `hybrid init DIR` (SPEC §6): a new bundle that validates and runs at once — a manifest with
/// `$schema`, a screen showing the app store, `main.js`, `jsconfig.json` pointing the editor at
/// the script declarations (`types/`), the JSON schemas (`schemas/`), a `.hbundleignore` that
/// keeps those out of the packed bundle, and a README with the next commands. Its files are
/// embedded in the binary at build time (`Starter/`, `types/`, `schemas/`: EmbedStarter).
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Make a new bundle in DIR (new or empty): manifest, screen, script, and the types and schemas editors check them with."
    )

    @Argument(help: "The folder to make the bundle in; it must be new or empty.")
    var folder: String

    func run() throws {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw UserFailure.reporting("hybrid init: \(folder) is a file; give a new or empty folder") }
            let entries = (try? manager.contentsOfDirectory(atPath: folder)) ?? []
            guard entries.isEmpty else {
                throw UserFailure.reporting("hybrid init: \(folder) is not empty (\(entries.count) entr\(entries.count == 1 ? "y" : "ies")); it makes a bundle in a new or empty folder, so nothing is overwritten")
            }
        }
        let absolute = URL(fileURLWithPath: folder).standardizedFileURL
        let folderName = absolute.lastPathComponent
        let app = Self.appName(from: folderName)
        // The README's URL of the folder, as `hybrid serve` serves it.
        let urlPath = folderName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? folderName
        for (path, starter) in EmbeddedStarter.files.sorted(by: { $0.key < $1.key }) {
            // Only the starter's own files name the app; the declarations and schemas are copied as they are.
            let isTemplate = !path.hasPrefix("types/") && !path.hasPrefix("schemas/")
            let text = isTemplate
                ? starter.replacingOccurrences(of: "__APP__", with: app).replacingOccurrences(of: "__FOLDER__", with: urlPath)
                : starter
            let file = absolute.appendingPathComponent(path)
            do {
                try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file, options: .atomic)
            } catch {
                throw UserFailure.reporting("hybrid init: cannot write \(file.path): \(error.localizedDescription)")
            }
        }
        print("made \(folder): the bundle \"\(app)\"")
        print("next: cd \(folder) && hybrid run .   (its README.md lists the rest: serve, keygen, pack)")
    }

    /// The folder's name as an app name (`BundleNames.isAppName`): other characters become `-`,
    /// leading dots go; "app" when nothing is left.
    static func appName(from folderName: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        let name = String(folderName.map { allowed.contains($0) ? $0 : "-" }.drop { $0 == "." }.prefix(128))
        return name.isEmpty ? "app" : name
    }
}
