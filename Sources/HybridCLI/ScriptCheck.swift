import Foundation
import HybridTerm

/// What `hybrid validate` checks of scripts without running them: their syntax, compiled the
/// way the runtime compiles a module, and the components and reformers a bundle's scripts
/// register.
enum ScriptCheck {
    /// `FILE:LINE:COL: SyntaxError: …` for each of `paths` that does not compile.
    static func syntaxErrors(in paths: [String]) -> [String] {
        ScriptRuntime.syntaxErrors(inScriptsAt: paths).map(\.report)
    }

    /// What the scripts at `paths` register with a literal name, each file read once: with
    /// `ui.component("NAME", …)` (a screen using one is not using an unknown component) and
    /// with `api.reformer("NAME", …)` (a data block naming one names a known reformer).
    static func registrations(in paths: [String]) -> (components: Set<String>, reformers: Set<String>) {
        var components = Set<String>(), reformers = Set<String>()
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for match in text.matches(of: /(ui\.component|api\.reformer)\(\s*['"`]([^'"`\\\n]+)['"`]/) {
                if match.1 == "ui.component" {
                    components.insert(String(match.2))
                } else {
                    reformers.insert(String(match.2))
                }
            }
        }
        return (components, reformers)
    }
}
