import HybridDocument
import HybridJSON

/// One entry of a screen's `data` (SPEC §7.4): what it loads, with which params, kept in the
/// screen's state at its name as `{status, data, error, stale, fromCache}`.
public struct DataBlock: Sendable {
    /// Where the data comes from.
    public enum Source: Sendable, Equatable {
        /// An API the bundle declares (`api.call`), its answer shaped by a reformer if named.
        case api(name: String, reformer: String?)
        /// A query of the app's database.
        case sql(String)
    }

    /// The state name it is kept at.
    public var name: String
    /// What it loads.
    public var source: Source
    /// Its params, with bindings: a change of their value loads it again.
    public var params: PropertyValue
    /// Where its `api` (or `sql`) and its `reformer` are written, for problems found once the
    /// bundle is known (`hybrid validate`: an API its definitions lack).
    public var sourceLocation: ExpressionLocation?
    public var reformerLocation: ExpressionLocation?

    /// A block kept at `name`, loading from `source` with `params`.
    public init(name: String, source: Source, params: PropertyValue,
                sourceLocation: ExpressionLocation? = nil, reformerLocation: ExpressionLocation? = nil) {
        self.name = name
        self.source = source
        self.params = params
        self.sourceLocation = sourceLocation
        self.reformerLocation = reformerLocation
    }
}

extension DocumentDecoder {
    /// Names a data block may not take: the screen's own state parts.
    static let reservedDataNames = ["params", StateScope.storeName]

    /// A screen's `data`: blocks by name, in document order.
    mutating func dataBlocks(_ json: SourceJSON) -> [DataBlock] {
        guard let members = json.members else {
            report("expected an object of data blocks by name, got \(json.kindDescription)", at: json.offset)
            return []
        }
        var blocks: [DataBlock] = []
        for member in members {
            let name = member.key
            let valid = name.first.map { $0.isLetter || $0 == "_" } == true && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            guard valid, !Self.reservedDataNames.contains(name) else {
                let why = valid ? "is a part of every screen's state" : "is not a plain state name (letters, digits, \"_\")"
                inKey(name) { $0.report("the data block name \(DiagnosticText.quoted(name)) \(why)", at: member.keyOffset) }
                continue
            }
            if let block = inKey(name, { $0.dataBlock(named: name, member.value) }) { blocks.append(block) }
        }
        return blocks
    }

    private mutating func dataBlock(named name: String, _ json: SourceJSON) -> DataBlock? {
        guard let members = json.members else {
            report("expected a data block: {\"api\": NAME, \"params\": {…}} or {\"sql\": QUERY, \"params\": …}; got \(json.kindDescription)", at: json.offset)
            return nil
        }
        checkFields(members, allowed: ["api", "sql", "params", "reformer"], owner: "a data block")
        let params = json["params"].map { member in inKey("params") { $0.bindable(member) } } ?? .constant(.object(JSONObject()))
        switch (json["api"], json["sql"]) {
        case (let api?, nil):
            guard let apiName = inKey("api", { $0.plainString(api) }) else { return nil }
            if let value = params.constantValue, value.objectValue == nil {
                inKey("params") { $0.report("expected an object of params by name", at: json["params"]!.offset) }
            }
            let reformer = json["reformer"].flatMap { member in inKey("reformer") { $0.plainString(member) } }
            return DataBlock(name: name, source: .api(name: apiName, reformer: reformer), params: params,
                             sourceLocation: location(of: api, at: "api"), reformerLocation: json["reformer"].map { location(of: $0, at: "reformer") })
        case (nil, let sql?):
            guard let query = inKey("sql", { $0.plainString(sql) }) else { return nil }
            if let reformer = json["reformer"] {
                inKey("reformer") { $0.report("a reformer shapes an API's answer; an \"sql\" block has none", at: reformer.offset) }
            }
            return DataBlock(name: name, source: .sql(query), params: params, sourceLocation: location(of: sql, at: "sql"))
        case (.some, .some):
            report("a data block has \"api\" or \"sql\", not both", at: json.offset)
            return nil
        case (nil, nil):
            report("missing required field \"api\" (or \"sql\") for a data block", at: json.offset)
            return nil
        }
    }

    private mutating func location(of json: SourceJSON, at key: String) -> ExpressionLocation {
        inKey(key) { ExpressionLocation(offset: json.offset, path: $0.path.description) }
    }
}
