import HybridFiles
import HybridJSON

/// A bundle's `manifest.json` (SPEC §5), decoded and checked.
public struct BundleManifest: Sendable, Hashable {
    /// One `files` entry: what a file must be, checked for signed bundles.
    public struct FileEntry: Sendable, Hashable {
        /// The SHA-256 digest of the file's bytes, as 64 lowercase hexadecimal digits.
        public var sha256: String
        /// The file's size in bytes.
        public var size: Int

        /// An entry from its parts.
        public init(sha256: String, size: Int) {
            self.sha256 = sha256
            self.size = size
        }
    }

    /// The app's name; also the folder of its storage and cache.
    public var app: String
    /// This bundle's version; an update must be strictly newer.
    public var version: SemanticVersion
    /// The runtime versions the bundle works with; `nil` accepts any.
    public var runtime: VersionRequirement?
    /// The main script's bundle path, run first; `nil` for a bundle without scripts.
    public var entry: String?
    /// The first screen, as written: a screen name or an `app://` URL.
    public var start: String
    /// The screen `start` opens (the URL's screen for an `app://` URL).
    public var startScreen: String
    /// Screen name → bundle path of its JSON document.
    public var screens: [String: String]
    /// Bundle paths of patch scripts, in the order they run.
    public var patches: [String]
    /// Permissions the bundle requests, in manifest order.
    public var permissions: [String]
    /// The bundle path of its API definitions (SPEC §7.1), when it has any.
    public var apis: String?
    /// The bundle path of its theme (SPEC §2): named styles every screen starts from.
    public var theme: String?
    /// The app store's first value (SPEC §3), an object; `{}` when the manifest has none.
    public var store: JSONObject
    /// The app's database (SPEC §7.3), when the manifest declares it.
    public var database: Database?
    /// Bundle path → expected digest and size; `nil` when the manifest has no `files` (a
    /// development bundle; required once signed bundles arrive).
    public var files: [String: FileEntry]?

    /// A manifest from its parts (for tests and tools that write manifests).
    public init(
        app: String, version: SemanticVersion, runtime: VersionRequirement? = nil, entry: String? = nil,
        start: String, startScreen: String? = nil, screens: [String: String], patches: [String] = [],
        permissions: [String] = [], apis: String? = nil, theme: String? = nil, store: JSONObject = JSONObject(), database: Database? = nil,
        files: [String: FileEntry]? = nil
    ) {
        self.app = app
        self.version = version
        self.runtime = runtime
        self.entry = entry
        self.start = start
        self.startScreen = startScreen ?? BundleNames.screenName(inAppURL: start) ?? start
        self.screens = screens
        self.patches = patches
        self.permissions = permissions
        self.apis = apis
        self.theme = theme
        self.store = store
        self.database = database
        self.files = files
    }

    /// `database` (SPEC §7.3): where the bundle's migrations are.
    public struct Database: Sendable, Hashable {
        /// The bundle path of the folder of `NNNN-name.sql` migrations, when there are any.
        public var migrations: String?

        public init(migrations: String? = nil) {
            self.migrations = migrations
        }
    }

    /// The top-level fields a manifest may have (`$schema` lets editors find the schema).
    public static let fieldNames = ["$schema", "app", "version", "runtime", "entry", "start", "screens", "patches", "permissions", "apis", "theme", "store", "database", "files"]
}

/// A file path named in a manifest and where it is written.
struct ManifestReference: Sendable {
    /// The bundle path.
    var path: String
    /// Byte offset of the string in the manifest.
    var offset: Int
    /// The JSON path of the string (`$.screens.home`).
    var jsonPath: String
}

extension BundleManifest {
    /// Reads a manifest, collecting every error rather than stopping at the first. The
    /// manifest is `nil` when any error was found, since half a manifest cannot be run or trusted.
    public static func load(_ source: SourceText) -> Loaded<BundleManifest> {
        decode(source).loaded
    }

    /// Reads a manifest and notes every file path it names, with where, so checks on disk
    /// (`BundleFolder.open`) can point at them.
    static func decode(_ source: SourceText) -> (loaded: Loaded<BundleManifest>, references: [ManifestReference]) {
        let json: SourceJSON
        do {
            json = try JSONParser.parse(source.bytes)
        } catch {
            let diagnostic = Diagnostic(offset: error.offset, path: "$", message: "invalid JSON: " + error.message)
            return (Loaded(value: nil, diagnostics: [diagnostic], source: source), [])
        }
        var decoder = ManifestDecoder()
        let manifest = decoder.manifest(json)
        // Stable sort: problems at one offset keep the order they were found in.
        let diagnostics = decoder.diagnostics.enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        let hasErrors = diagnostics.contains { $0.severity == .error }
        return (Loaded(value: hasErrors ? nil : manifest, diagnostics: diagnostics, source: source), decoder.references)
    }

    /// Reads a manifest from a file; a file that cannot be read is reported like a broken
    /// manifest, at `$`.
    public static func load(contentsOf path: String, displayName: String? = nil) -> Loaded<BundleManifest> {
        decode(contentsOf: path, displayName: displayName).loaded
    }

    /// `decode(_:)` of the file at `path`.
    static func decode(contentsOf path: String, displayName: String? = nil) -> (loaded: Loaded<BundleManifest>, references: [ManifestReference]) {
        let name = displayName ?? path
        do {
            return decode(SourceText(name: name, bytes: try FileBytes.contents(of: path)))
        } catch {
            let diagnostic = Diagnostic(offset: 0, path: "$", message: "cannot read the file: " + error.reason)
            return (Loaded(value: nil, diagnostics: [diagnostic], source: SourceText(name: name, bytes: [])), [])
        }
    }
}
