import HybridJSON

/// Where a version stands in its boot (SPEC §5): `trying` while it starts for the first time,
/// `healthy` once it called `hybrid.ready()` (or rendered its start screen), `bad` when it threw,
/// ran away or never became ready — and then for good.
public enum BootState: String, Sendable, Equatable {
    /// Started, not yet ready. Found at the next launch with its start marker still on disk
    /// (`BundleCache.startMarker`), that start never ended — the process crashed or was killed —
    /// which counts as a failure; without it, the start was quit or interrupted, which does not.
    case trying
    /// Started well at least once.
    case healthy
    /// Failed to start; never launched again.
    case bad
}

/// An app's boot record, `boot.json` in its cache folder:
/// `{"versions": {"1.2.0": {"state": "healthy"}, "1.3.0": {"state": "bad", "reason": "…"}}}`.
public struct BootRecord: Sendable, Equatable {
    /// One version's entry.
    public struct Entry: Sendable, Equatable {
        /// Its state.
        public var state: BootState
        /// Why it is bad, for the report when it is offered again.
        public var reason: String?

        /// An entry in `state`.
        public init(state: BootState, reason: String? = nil) {
            self.state = state
            self.reason = reason
        }
    }

    /// Entries by version text.
    public var versions: [String: Entry] = [:]

    /// An empty record.
    public init() {}

    /// Reads a record; what does not decode is left out (a damaged record forgets, it does
    /// not stop the app).
    init(json bytes: [UInt8]) {
        guard let root = try? JSONParser.parse(bytes).plain, case .object(let versions)? = root.objectValue?["versions"] else { return }
        for (version, value) in versions {
            guard let state = value.objectValue?["state"]?.stringValue.flatMap(BootState.init(rawValue:)) else { continue }
            self.versions[version] = Entry(state: state, reason: value.objectValue?["reason"]?.stringValue)
        }
    }

    /// The record as JSON, versions in order.
    var jsonBytes: [UInt8] {
        let entries = versions.sorted { $0.key < $1.key }.map { version, entry -> (String, JSONValue) in
            var fields: [(String, JSONValue)] = [("state", .string(entry.state.rawValue))]
            if let reason = entry.reason { fields.append(("reason", .string(reason))) }
            return (version, .object(JSONObject(fields)))
        }
        return Array(JSONValue.object(JSONObject([("versions", .object(JSONObject(entries)))])).jsonText.utf8)
    }
}
