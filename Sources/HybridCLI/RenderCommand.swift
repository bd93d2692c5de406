import ArgumentParser
import Foundation
import HybridAppRunner
import HybridTerm

/// `hybrid render FILE.json`: draws one frame of a screen, headless.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render one frame of a screen document to standard output."
    )

    @Argument(help: "The screen document.")
    var file: String

    @Option(parsing: .unconditional, help: "Frame size in cells, WIDTHxHEIGHT, each 1 to 1000.", transform: TerminalSize.argument)
    var size: TerminalSize = .standard

    @Option(help: "A JSON file whose object is merged over the screen's state.")
    var state: String?

    @Flag(help: "Print escape codes for colours and attributes (the default on a terminal).")
    var ansi = false

    @Flag(help: "Print plain text, one line per row (the default when not on a terminal).")
    var plain = false

    func validate() throws {
        if ansi && plain { throw ValidationError("--ansi and --plain cannot be used together") }
    }

    func run() throws {
        // A screen of a bundle renders with the bundle's theme, as it runs.
        let theme = BundleTheme.enclosing(screenFile: file)
        let load = ScreenDocument.load(contentsOf: file, theme: theme?.styles ?? NamedStyles(), decoding: .whole)
        for line in (theme?.formattedDiagnostics ?? []) + load.formattedDiagnostics {
            FileHandleOutput.standardError(line)
        }
        guard let document = load.value else { throw UserFailure() }
        var screenState = document.state
        if let state {
            let stateLoad = JSONFile.load(state)
            guard let overlay = stateLoad.value else { throw UserFailure.reporting(stateLoad.error!) }
            // Anything but an object would replace the screen's state instead of adding to it.
            guard case .object = overlay else {
                throw UserFailure.usage("--state \(state): expected a JSON object whose members are merged over the screen's state, got \(overlay.kindDescription)")
            }
            screenState = screenState.merging(overlay)
        }
        let renderer = ScreenRenderer(document: document)
        let frame = renderer.render(state: screenState, width: size.columns, height: size.rows)
        (frame.newDocumentDiagnostics + frame.newDiagnostics).formatted(in: load.source).forEach(FileHandleOutput.standardError)
        let useANSI = ansi || (!plain && FileHandleOutput.outputIsTerminal)
        if useANSI {
            let colors = ColorSupport.detect(environment: ProcessInfo.processInfo.environment)
            FileHandleOutput.standardOutput(StyledText.lines(of: frame.buffer, colors: colors))
        } else {
            FileHandleOutput.standardOutput(Array((frame.buffer.plainLines().joined(separator: "\n") + "\n").utf8))
        }
        if load.hasErrors || theme?.hasErrors == true || !frame.newDiagnostics.isEmpty || !frame.newDocumentDiagnostics.isEmpty { throw UserFailure() }
    }
}

/// Reading a plain JSON file given on the command line.
enum JSONFile {
    static func load(_ path: String) -> (value: JSONValue?, error: String?) {
        let source: SourceText
        do {
            source = SourceText(name: path, bytes: try FileBytes.contents(of: path))
        } catch {
            return (nil, "\(path): cannot read the file: \(error.reason)")
        }
        do {
            return (try JSONParser.parse(source.bytes).plain, nil)
        } catch {
            return (nil, "\(source.describe(error.offset)): invalid JSON: \(error.message)")
        }
    }
}
