import Foundation
import PackagePlugin

/// Embeds a target's `.js` files in its code at build time: one generated Swift file holding
/// each file's text (`EmbeddedJavaScript.files`, by file name without the extension), so a
/// program that embeds the library carries its JavaScript inside the binary (no resource bundle
/// to ship beside it, which `Bundle.module` would need on Linux).
@main
struct EmbedJavaScript: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let scripts = target.sourceFiles(withSuffix: "js").map(\.url).sorted { $0.path < $1.path }
        guard !scripts.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedJavaScript.swift")
        return [.buildCommand(
            displayName: "Embedding the JavaScript of \(target.name)",
            executable: try context.tool(named: "EmbedFilesTool").url,
            arguments: [output.path, "EmbeddedJavaScript"] + scripts.map { "\($0.deletingPathExtension().lastPathComponent)=\($0.path)" },
            inputFiles: scripts,
            outputFiles: [output]
        )]
    }
}
