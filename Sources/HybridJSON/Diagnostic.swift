/// One problem found in a document, located by byte offset and JSON path.
///
/// Rendered as `FILE:LINE:COL: $.body.children[2].style.width: message`, the shape every tool of
/// the runtime uses, so editors can jump to it.
public struct Diagnostic: Sendable, Hashable {
    /// How bad it is: errors make `hybrid validate` fail, warnings do not.
    public enum Severity: Sendable, Hashable {
        case error, warning
    }

    /// Byte offset in the source where the problem is.
    public var offset: Int
    /// The JSON path of the offending value, like `$.body.children[2].style.width`.
    public var path: String
    /// What is wrong, and what was expected.
    public var message: String
    /// Error or warning.
    public var severity: Severity

    /// A diagnostic at a source offset.
    public init(offset: Int, path: String, message: String, severity: Severity = .error) {
        self.offset = offset
        self.path = path
        self.message = message
        self.severity = severity
    }

    /// `FILE:LINE:COL: PATH: message` (with `warning: ` before the message for warnings); the
    /// path and message made safe to print (``DiagnosticText/safe(_:)``), whatever they echo.
    public func formatted(in source: SourceText) -> String {
        formatted(at: source.describe(offset))
    }

    /// The diagnostic after its location (`FILE:LINE:COL`).
    func formatted(at location: String) -> String {
        let prefix = severity == .warning ? "warning: " : ""
        return "\(location): \(DiagnosticText.safe(path)): \(prefix)\(DiagnosticText.safe(message))"
    }
}

extension Sequence<Diagnostic> {
    /// Each diagnostic as `FILE:LINE:COL: PATH: message`, located in one pass over `source`
    /// however many there are (locating each on its own reads the text once per problem).
    public func formatted(in source: SourceText) -> [String] {
        let diagnostics = Array(self)
        return zip(diagnostics, source.describe(diagnostics.map(\.offset))).map { $0.formatted(at: $1) }
    }
}
