import Foundation
import HybridTerm

/// What `hybrid validate` checks of scripts without running them: their syntax, compiled the
/// way the runtime compiles a module, and the components a bundle's scripts register.
enum ScriptCheck {
    /// `FILE:LINE:COL: SyntaxError: …` for each of `paths` that does not compile.
    static func syntaxErrors(in paths: [String]) -> [String] {
        ScriptRuntime.syntaxErrors(inScriptsAt: paths).map(\.report)
    }

    /// The names the scripts at `paths` register with `ui.component("NAME", …)` written with a
    /// literal name: a screen using one of them is not using an unknown component.
    static func registeredComponents(in paths: [String]) -> Set<String> {
        var names = Set<String>()
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for match in text.matches(of: /ui\.component\(\s*['"`]([^'"`\\\n]+)['"`]/) { names.insert(String(match.1)) }
        }
        return names
    }
}
