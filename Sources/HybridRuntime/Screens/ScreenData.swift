import HybridDatabase
import HybridJSON
import HybridWidgets

/// Where each of a screen's data blocks (SPEC §7.4) stands: the params it last loaded with, the
/// load whose answer counts (an older one's answer is dropped when it comes), and what the
/// next page needs. The values themselves live in the screen's state, at each block's name, as
/// `{status, data, error, stale, fromCache, page, lastPage, requestId}`.
final class ScreenData {
    /// A load begun: which block, the request for the script side, and its number.
    struct Load: Sendable {
        var block: DataBlock
        /// `{api, params, reformer?, next?}` (see `ScriptRuntime.loadData`).
        var request: JSONValue
        var number: Int
    }

    private struct Progress {
        /// The params the block last loaded with.
        var params: JSONValue
        /// The load whose answer counts.
        var current: Int
        /// The last answer's `{raw, page, first}`, for the next page; nil before one came.
        var next: JSONValue?
        var lastPage = false
        /// The last problem evaluating the params, told once.
        var paramsProblem: String?
    }

    let blocks: [DataBlock]
    private var progress: [String: Progress] = [:]
    /// The query each `sql` block watches, replaced when its params change; gone with the screen.
    private var watches: [String: QueryWatch] = [:]
    private var lastLoad = 0

    init(blocks: [DataBlock]) {
        self.blocks = blocks
    }

    /// Keeps `watch` as what `block` watches now, ending the one before.
    func keep(_ watch: QueryWatch, for block: DataBlock) {
        watches.updateValue(watch, forKey: block.name)?.cancel()
    }

    /// The block named `name`, if the screen has one.
    func block(named name: String) -> DataBlock? {
        blocks.first { $0.name == name }
    }

    /// Whether `params` differ from what `block` last loaded with (true before its first load).
    func needsLoad(_ block: DataBlock, params: JSONValue) -> Bool {
        progress[block.name]?.params != params
    }

    /// Notes a problem evaluating `block`'s params; true when it is new (to be told).
    func noteParamsProblem(_ problem: String, of block: DataBlock) -> Bool {
        guard progress[block.name]?.paramsProblem != problem else { return false }
        progress[block.name, default: Progress(params: .null, current: 0)].paramsProblem = problem
        return true
    }

    /// Begins a load of `block` with `params`: the first page, or the page after the last one
    /// loaded (`nextPage`). Nil for a next page past the last, or before a first page came.
    func begin(_ block: DataBlock, params: JSONValue, nextPage: Bool) -> Load? {
        var entry = progress[block.name] ?? Progress(params: params, current: 0)
        if nextPage {
            guard let next = entry.next, !entry.lastPage else { return nil }
            entry.params = params
            return start(block, entry: &entry, next: next)
        }
        entry.params = params
        entry.next = nil
        entry.lastPage = false
        return start(block, entry: &entry, next: nil)
    }

    private func start(_ block: DataBlock, entry: inout Progress, next: JSONValue?) -> Load {
        lastLoad += 1
        entry.current = lastLoad
        entry.paramsProblem = nil
        progress[block.name] = entry
        var request = JSONObject([("params", entry.params)])
        if case .api(let name, let reformer) = block.source {
            request["api"] = .string(name)
            if let reformer { request["reformer"] = .string(reformer) }
        }
        if let next { request["next"] = next }
        return Load(block: block, request: .object(request), number: lastLoad)
    }

    /// The block's value while `load` runs: what it showed before, marked loading.
    func loading(_ load: Load, previous: JSONValue?) -> JSONValue {
        var value = Self.value(previous)
        value["status"] = .string("loading")
        return .object(value)
    }

    /// The block's value once `reply` (`{answer}` or `{error}`) came for `load`; nil when a later
    /// load began since, so this answer no longer counts.
    func settle(_ load: Load, reply: JSONValue, previous: JSONValue?) -> JSONValue? {
        guard progress[load.block.name]?.current == load.number else { return nil }
        var value = Self.value(previous)
        if case .object(let answer)? = reply["answer"] {
            progress[load.block.name]?.next = .object(JSONObject([
                ("raw", answer["raw"] ?? .null), ("page", answer["page"] ?? .integer(1)), ("first", answer["first"] ?? .integer(0)),
            ]))
            let lastPage = answer["lastPage"] == .bool(true)
            progress[load.block.name]?.lastPage = lastPage
            value["status"] = .string("ok")
            value["data"] = answer["data"] ?? .null
            value["error"] = .null
            value["stale"] = answer["stale"] ?? .bool(false)
            value["fromCache"] = answer["fromCache"] ?? .bool(false)
            value["page"] = answer["page"] ?? .integer(1)
            value["lastPage"] = .bool(lastPage)
            value["requestId"] = answer["requestId"] ?? .null
        } else {
            // The data shown before stays: a failed refresh does not blank the list.
            value["status"] = .string("error")
            value["error"] = reply["error"] ?? .object(JSONObject([("code", .string("E_FAILED")), ("message", .string("the load failed"))]))
        }
        return .object(value)
    }

    /// A failure that needs no load (an `sql` block without a database, a screen without scripts).
    func failure(_ load: Load, code: String, message: String, previous: JSONValue?) -> JSONValue? {
        settle(load, reply: .object(JSONObject([("error", .object(JSONObject([("code", .string(code)), ("message", .string(message))])))])),
               previous: previous)
    }

    /// A block's value as it stands, every field present.
    private static func value(_ previous: JSONValue?) -> JSONObject {
        var value = JSONObject([
            ("status", .string("loading")), ("data", .null), ("error", .null), ("stale", .bool(false)), ("fromCache", .bool(false)),
            ("page", .integer(0)), ("lastPage", .bool(false)), ("requestId", .null),
        ])
        if case .object(let before)? = previous {
            for member in before where value[member.key] != nil { value[member.key] = member.value }
        }
        return value
    }
}
