import Foundation
import HybridTerm

/// What `hybrid validate` checks of a bundle's screens' data blocks (SPEC §7.4) once the whole
/// bundle is known: each `api` block names an API its definitions declare (an error, with a
/// did-you-mean), and each reformer is one its scripts register with a literal name (a warning:
/// a script may register it under a computed name).
enum DataBlockCheck {
    /// The problems of `screen`'s data blocks, formatted in its text.
    static func problems(of screen: Loaded<ScreenDocument>, apis: APIDefinitions?, reformers: Set<String>) -> [(Diagnostic, String)] {
        guard let document = screen.value else { return [] }
        var found: [Diagnostic] = []
        for block in document.data {
            guard case .api(let name, let reformer) = block.source else { continue }
            if let location = block.sourceLocation {
                if let apis {
                    if apis.apis[name] == nil {
                        let hint = Suggestion.hint(for: name, in: apis.apis.keys)
                        found.append(Diagnostic(offset: location.offset, path: location.path,
                                                message: "no API named \(DiagnosticText.quoted(name)) in the bundle's apis file\(hint)"))
                    }
                } else {
                    found.append(Diagnostic(offset: location.offset, path: location.path,
                                            message: "the bundle declares no APIs (the manifest's \"apis\" names the file that would declare \(DiagnosticText.quoted(name)))"))
                }
            }
            if let reformer, let location = block.reformerLocation, !reformers.contains(reformer) {
                let hint = Suggestion.hint(for: reformer, in: reformers)
                found.append(Diagnostic(offset: location.offset, path: location.path,
                                        message: "no script registers a reformer named \(DiagnosticText.quoted(reformer)) (api.reformer(\(DiagnosticText.quoted(reformer)), fn))\(hint)",
                                        severity: .warning))
            }
        }
        return found.map { ($0, $0.formatted(in: screen.source)) }
    }
}
