import HybridJSON

/// Walks a parsed manifest, building a `BundleManifest` and collecting every problem with its
/// path; also notes every file path it names, for `BundleFolder` to look up on disk.
struct ManifestDecoder: LocatingDecoder {
    var diagnostics: [Diagnostic] = []
    private(set) var references: [ManifestReference] = []
    var path = JSONPath()

    static let fileEntryFields = ["sha256", "size"]


    // MARK: Manifest

    mutating func manifest(_ json: SourceJSON) -> BundleManifest? {
        guard let members = json.members else {
            report("expected a manifest (a JSON object), got \(json.kindDescription)", at: json.offset)
            return nil
        }
        checkFields(members, allowed: BundleManifest.fieldNames, owner: "the manifest")
        if let schema = json["$schema"] { _ = inKey("$schema") { $0.plainString(schema) } }

        let app = required(json, "app") { $0.appName($1) }
        let version = required(json, "version") { $0.version($1) }
        let runtime = json["runtime"].flatMap { value in inKey("runtime") { $0.requirement(value) } }
        let entry = json["entry"].flatMap { value in inKey("entry") { $0.scriptPath(value) } }
        let startJSON = json["start"]
        let start = required(json, "start") { $0.start($1) }
        let screens = required(json, "screens") { $0.screens($1) }
        let patches = json["patches"].flatMap { value in inKey("patches") { $0.patches(value) } } ?? []
        let permissions = json["permissions"].flatMap { value in inKey("permissions") { $0.permissions(value) } } ?? []
        let apis = json["apis"].flatMap { value in inKey("apis") { $0.filePath(value, suffix: ".json", kind: "a .json file of API definitions") } }
        let theme = json["theme"].flatMap { value in inKey("theme") { $0.filePath(value, suffix: ".json", kind: "a .json file of named styles") } }
        let store = json["store"].flatMap { value in inKey("store") { $0.store(value) } } ?? JSONObject()
        let database = json["database"].flatMap { value in inKey("database") { $0.database(value) } }
        let files = json["files"].flatMap { value in inKey("files") { $0.files(value) } }

        // `start` must open one of this bundle's screens; checked once both are known.
        if let start, let screens, let startJSON, screens[start.screen] == nil {
            let names = screens.keys.sorted()
            let hint = Suggestion.hint(for: start.screen, in: names)
            // A long list is cut: the did-you-mean points at the likely one anyway.
            var shown = names.prefix(8).map { "\"\($0)\"" }
            if names.count > 8 { shown.append("…") }
            let listed = names.isEmpty ? "\"screens\" is empty" : "the screens are " + shown.joined(separator: ", ")
            inKey("start") { $0.report("unknown screen \"\(start.screen)\" (\(listed))\(hint)", at: startJSON.offset) }
        }

        guard let app, let version, let start, let screens else { return nil }
        return BundleManifest(
            app: app, version: version, runtime: runtime, entry: entry, start: start.text, startScreen: start.screen,
            screens: screens, patches: patches, permissions: permissions, apis: apis, theme: theme, store: store, database: database, files: files
        )
    }

    // MARK: Fields

    private mutating func appName(_ json: SourceJSON) -> String? {
        guard let name = plainString(json) else { return nil }
        guard BundleNames.isAppName(name) else {
            report("expected an app name (letters, digits, \"-\", \"_\", \".\"; not starting with \".\"), got \"\(name)\"", at: json.offset)
            return nil
        }
        return name
    }

    private mutating func version(_ json: SourceJSON) -> SemanticVersion? {
        guard let text = plainString(json) else { return nil }
        do {
            return try SemanticVersion(parsing: text)
        } catch {
            report(error.description, at: json.offset)
            return nil
        }
    }

    private mutating func requirement(_ json: SourceJSON) -> VersionRequirement? {
        guard let text = plainString(json) else { return nil }
        do {
            return try VersionRequirement(parsing: text)
        } catch {
            report("invalid version requirement \"\(text)\": \(error.reason)", at: json.offset)
            return nil
        }
    }

    private mutating func start(_ json: SourceJSON) -> (text: String, screen: String)? {
        guard let text = plainString(json) else { return nil }
        let screen = text.hasPrefix(BundleNames.appScheme) ? BundleNames.screenName(inAppURL: text) : (BundleNames.isScreenName(text) ? text : nil)
        guard let screen else {
            report("expected a screen name or an app://SCREEN URL, got \"\(text)\"", at: json.offset)
            return nil
        }
        return (text, screen)
    }

    private mutating func screens(_ json: SourceJSON) -> [String: String]? {
        guard let members = json.members else {
            report("expected an object mapping screen names to .json paths, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        var screens: [String: String] = [:]
        var valid = true
        // Hashed once: a hostile manifest of many thousand screens costs one pass.
        let repeated = members.repeatedKeys()
        for position in members.indices {
            let member = members[position]
            let name = member.key
            if repeated.contains(position) {
                inKey(name) { $0.report("duplicate screen \(DiagnosticText.quoted(name))", at: member.keyOffset) }
                valid = false
                continue
            }
            if !BundleNames.isScreenName(name) {
                inKey(name) { $0.report("expected a screen name (letters, digits, \"_\", \"-\", \".\"; starting with a letter or \"_\"), got \"\(name)\"", at: member.keyOffset) }
                valid = false
            }
            let value = member.value
            if let file = inKey(name, { $0.filePath(value, suffix: ".json", kind: "a .json screen document") }) {
                screens[name] = file
            } else {
                valid = false
            }
        }
        return valid ? screens : nil
    }

    private mutating func scriptPath(_ json: SourceJSON) -> String? {
        filePath(json, suffix: ".js", kind: "a .js script")
    }

    /// A bundle path that must end in `suffix`; noted as a reference when valid.
    private mutating func filePath(_ json: SourceJSON, suffix: String, kind: String) -> String? {
        guard let file = bundlePath(json) else { return nil }
        guard file.hasSuffix(suffix) else {
            report("expected a path to \(kind), got \"\(file)\"", at: json.offset)
            return nil
        }
        references.append(ManifestReference(path: file, offset: json.offset, jsonPath: path.description))
        return file
    }

    private mutating func bundlePath(_ json: SourceJSON) -> String? {
        guard let file = plainString(json) else { return nil }
        if let problem = BundlePath.problem(with: file) {
            report(problem, at: json.offset)
            return nil
        }
        return file
    }

    /// `database`: `{"migrations": "FOLDER"}`, a bundle path.
    private mutating func database(_ json: SourceJSON) -> BundleManifest.Database? {
        guard let members = json.members else {
            report("expected an object like {\"migrations\": \"data/migrations\"}, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        checkFields(members, allowed: ["migrations"], owner: "\"database\"")
        return BundleManifest.Database(migrations: optional(json, "migrations") { $0.bundlePath($1) })
    }

    private mutating func patches(_ json: SourceJSON) -> [String]? {
        uniqueStrings(json, what: "paths of .js scripts") { decoder, item in decoder.scriptPath(item) }
    }

    /// The app store's first value: any JSON object.
    private mutating func store(_ json: SourceJSON) -> JSONObject? {
        guard json.members != nil, case .object(let object) = json.plain else {
            report("expected an object (the app store's first value), got \(json.kindDescription)", at: json.offset)
            return nil
        }
        return object
    }

    private mutating func permissions(_ json: SourceJSON) -> [String]? {
        uniqueStrings(json, what: "permission names") { decoder, item in
            guard let name = decoder.plainString(item) else { return nil }
            guard BundleNames.isPermission(name) else {
                decoder.report("expected a permission name like \"net.request\" or \"storage\", got \"\(name)\"", at: item.offset)
                return nil
            }
            return name
        }
    }

    /// An array of strings decoded by `decode`, each listed once.
    private mutating func uniqueStrings(_ json: SourceJSON, what: String, _ decode: (inout ManifestDecoder, SourceJSON) -> String?) -> [String]? {
        guard let items = json.items else {
            report("expected an array of \(what), got \(json.kindDescription)", at: json.offset)
            return nil
        }
        var values: [String] = []
        var valid = true
        for (index, item) in items.enumerated() {
            atIndex(index) { decoder in
                guard let value = decode(&decoder, item) else {
                    valid = false
                    return
                }
                if values.contains(value) {
                    decoder.report("\"\(value)\" is listed twice", at: item.offset)
                    valid = false
                }
                values.append(value)
            }
        }
        return valid ? values : nil
    }

    private mutating func files(_ json: SourceJSON) -> [String: BundleManifest.FileEntry]? {
        guard let members = json.members else {
            report("expected an object mapping paths to {\"sha256\", \"size\"}, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        var files: [String: BundleManifest.FileEntry] = [:]
        var valid = true
        let repeated = members.repeatedKeys()
        for position in members.indices {
            let member = members[position]
            let file = member.key
            let entry: BundleManifest.FileEntry? = inKey(file) { decoder in
                if repeated.contains(position) {
                    decoder.report("duplicate file \(DiagnosticText.quoted(file))", at: member.keyOffset)
                    return nil
                }
                let pathProblem = BundlePath.problem(with: file)
                if let pathProblem {
                    decoder.report(pathProblem, at: member.keyOffset)
                } else {
                    decoder.references.append(ManifestReference(path: file, offset: member.keyOffset, jsonPath: decoder.path.description))
                }
                let entry = decoder.fileEntry(member.value)
                return pathProblem == nil ? entry : nil
            }
            if let entry { files[file] = entry } else { valid = false }
        }
        return valid ? files : nil
    }

    private mutating func fileEntry(_ json: SourceJSON) -> BundleManifest.FileEntry? {
        guard let members = json.members else {
            report("expected a file entry {\"sha256\", \"size\"}, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        checkFields(members, allowed: Self.fileEntryFields, owner: "a file entry")
        let sha256 = required(json, "sha256") { decoder, value -> String? in
            guard let digest = decoder.plainString(value) else { return nil }
            guard Self.isDigest(digest) else {
                decoder.report("expected a SHA-256 digest (64 lowercase hexadecimal digits), got \"\(digest)\"", at: value.offset)
                return nil
            }
            return digest
        }
        let size = required(json, "size") { decoder, value -> Int? in
            guard let size = value.integerValue, size >= 0 else {
                let got = value.kind == .integer || value.kind == .number ? value.plain.jsonText : value.kindDescription
                decoder.report("expected a size in bytes (a non-negative integer), got \(got)", at: value.offset)
                return nil
            }
            return size
        }
        guard let sha256, let size else { return nil }
        return BundleManifest.FileEntry(sha256: sha256, size: size)
    }

    private static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
        }
    }
}
