import Foundation
import PackagePlugin

/// Embeds what `hybrid init` writes (`EmbeddedStarter.files`, by path inside the new bundle):
/// the target's `Starter/` folder, the script declarations of `types/`, and the JSON schemas of
/// `schemas/`, each from the one place it is kept in the repository.
@main
struct EmbedStarter: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let root = context.package.directoryURL
        var files: [(key: String, url: URL)] = []
        for (folder, prefix) in [(root.appendingPathComponent("Sources/\(target.name)/Starter"), ""), (root.appendingPathComponent("types"), "types/"),
                                 (root.appendingPathComponent("schemas"), "schemas/")] {
            files += Self.files(in: folder).map { (prefix + $0, folder.appendingPathComponent($0)) }
        }
        files = files.filter { !$0.key.hasPrefix("types/tests/") && !$0.key.hasPrefix("types/jsconfig") && !$0.key.hasPrefix("schemas/versions/") }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedStarter.swift")
        return [.buildCommand(
            displayName: "Embedding the starter bundle of \(target.name)",
            executable: try context.tool(named: "EmbedFilesTool").url,
            arguments: [output.path, "EmbeddedStarter"] + files.map { "\($0.key)=\($0.url.path)" },
            inputFiles: files.map(\.url),
            outputFiles: [output]
        )]
    }

    /// The files under `folder` (hidden ones too), by path relative to it, sorted.
    private static func files(in folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder), !isFolder.boolValue {
                found.append(path)
            }
        }
        return found.sorted()
    }
}
