/// The outcome of reading a checked JSON file (a screen document, a bundle manifest, a bundle
/// folder through its manifest): the value unless it could not be made, and every problem
/// found, located in the text it came from.
///
/// One type for every such file, so tools report them alike: `hybrid validate` prints
/// `formattedDiagnostics` and fails on `hasErrors`, whatever it read.
public struct Loaded<Value: Sendable>: Sendable {
    /// What was read. Whether it is there when errors were found is the reader's rule: a
    /// screen keeps its broken nodes as `.invalid` markers, while half a manifest is `nil`.
    public var value: Value?
    /// Errors and warnings, sorted by position.
    public var diagnostics: [Diagnostic]
    /// The text the value came from (empty when it could not be read), to format diagnostics.
    public var source: SourceText

    /// An outcome of reading `source`.
    public init(value: Value?, diagnostics: [Diagnostic], source: SourceText) {
        self.value = value
        self.diagnostics = diagnostics
        self.source = source
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Whether the file passes: read, with warnings at most (what `hybrid validate` calls ok).
    public var passes: Bool { value != nil && !hasErrors }

    /// Every diagnostic as `FILE:LINE:COL: PATH: message`.
    public var formattedDiagnostics: [String] { diagnostics.formatted(in: source) }
}
