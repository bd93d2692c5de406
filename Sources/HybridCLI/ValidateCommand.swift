import ArgumentParser
import Foundation
import HybridAppRunner
import HybridTerm

/// `hybrid validate FILE…`: reports every problem in screen documents, manifests and bundles.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check screens, manifests and bundle folders; report every problem as FILE:LINE:COL: PATH: message."
    )

    @Argument(help: "Screen documents (.json), manifest.json files, or bundle folders (their manifest and every screen).")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            let lines: [String]
            let ok: Bool
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), isFolder.boolValue {
                (lines, ok) = Self.checkBundle(file)
            } else if FileSystem.fileExtension(of: file) == "js" {
                lines = ScriptCheck.syntaxErrors(in: [file])
                ok = lines.isEmpty
            } else {
                (lines, ok) = switch Self.kind(of: file) {
                case .manifest: Self.outcome(BundleManifest.load(contentsOf: file))
                case .apiDefinitions: Self.outcome(APIDefinitions.load(contentsOf: file))
                case .screen: Self.checkScreen(file)
                }
            }
            lines.forEach(FileHandleOutput.standardError)
            if ok {
                print("\(file): ok")
            } else {
                failed = true
            }
        }
        if failed { throw UserFailure() }
    }

    /// What a JSON file holds, read once: a bundle manifest (named `manifest.json`, or an
    /// object with `app` and no `format`, what every manifest has and no screen has), API
    /// definitions (`apis` and neither `format` nor `app`), else a screen.
    private enum Kind {
        case manifest, apiDefinitions, screen
    }

    private static func kind(of file: String) -> Kind {
        if FileSystem.lastComponent(of: file) == BundleFolder.manifestName { return .manifest }
        guard let data = FileManager.default.contents(atPath: file), let json = try? JSONParser.parse(Array(data)) else { return .screen }
        if json["format"] != nil { return .screen }
        if json["app"] != nil { return .manifest }
        return json["apis"] != nil ? .apiDefinitions : .screen
    }

    /// A file's problems, and whether it passed.
    private static func outcome<Value>(_ load: Loaded<Value>) -> (lines: [String], ok: Bool) {
        (load.formattedDiagnostics, load.passes)
    }

    /// A screen file, with the theme of the bundle it is in (`BundleTheme.enclosing`), whose
    /// problems come first.
    private static func checkScreen(_ file: String) -> (lines: [String], ok: Bool) {
        let theme = BundleTheme.enclosing(screenFile: file)
        let screen = outcome(ScreenDocument.load(contentsOf: file, theme: theme?.styles ?? NamedStyles(), decoding: .whole))
        return ((theme?.formattedDiagnostics ?? []) + screen.lines, screen.ok && theme?.hasErrors != true)
    }

    /// A bundle folder: its manifest and files, its theme, its API definitions, its migrations' names, each of its screens (a component its scripts
    /// register is known; its data blocks name declared APIs and registered reformers), then the syntax of every
    /// script in it.
    private static func checkBundle(_ folder: String) -> (lines: [String], ok: Bool) {
        let load = BundleFolder.open(folder)
        var lines = load.formattedDiagnostics
        var ok = load.passes
        var apis: APIDefinitions?
        if let bundle = load.value, let relative = bundle.manifest.apis, let path = bundle.filePath(for: relative) {
            let loaded = APIDefinitions.load(contentsOf: path)
            lines += loaded.formattedDiagnostics
            ok = ok && loaded.passes
            apis = loaded.value
        }
        if let bundle = load.value, let relative = bundle.manifest.database?.migrations {
            let problems = bundle.filePath(for: relative).map { MigrationFiles(folder: $0).problems }
                ?? ["\(bundle.path): the migrations folder \"\(relative)\" is not a usable path"]
            lines += problems
            ok = ok && problems.isEmpty
        }
        let theme = load.value.flatMap(BundleTheme.load)
        if let theme {
            lines += theme.formattedDiagnostics
            ok = ok && theme.passes
        }
        let scripts = load.value?.scriptPaths ?? []
        let (registered, reformers) = ScriptCheck.registrations(in: scripts)
        for name in (load.value?.manifest.screens.keys.sorted() ?? []) {
            guard let path = load.value?.screenPath(named: name) else { continue }
            let screen = ScreenDocument.load(contentsOf: path, theme: theme?.styles ?? NamedStyles(), decoding: .whole)
            let known = zip(screen.diagnostics, screen.formattedDiagnostics).filter { diagnostic, _ in
                !registered.contains { diagnostic.message.hasPrefix("unknown component \(DiagnosticText.quoted($0))") }
            }
            let data = DataBlockCheck.problems(of: screen, apis: apis, reformers: reformers)
            lines += (known + data).sorted { $0.0.offset < $1.0.offset }.map(\.1)
            ok = ok && screen.passes && !data.contains { $0.0.severity == .error }
        }
        let syntax = ScriptCheck.syntaxErrors(in: scripts)
        return (lines + syntax, ok && syntax.isEmpty)
    }
}
