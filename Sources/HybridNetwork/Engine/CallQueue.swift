import Synchronization

/// Runs the calls given for one key one after another, in the order they were given: the
/// queueing calls of one service (SPEC §7.1 `offline: "queue"`), so they reach the server —
/// or the outbox, when it cannot be reached — in the order the script made them.
final class CallQueue: Sendable {
    /// For each key, the turn of the call given last: done when that call is.
    private let lastTurns = Mutex<[String: Task<Void, Never>]>([:])

    /// Runs `body` once every call given earlier for `key` has finished.
    func run<Value: Sendable>(for key: String, _ body: () async throws(CallError) -> Value) async throws(CallError) -> Value {
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        let turn = Task { for await _ in finished {} }
        let previous = lastTurns.withLock { turns in
            defer { turns[key] = turn }
            return turns[key]
        }
        defer {
            finish.finish()
            lastTurns.withLock { turns in if turns[key] == turn { turns[key] = nil } }
        }
        await previous?.value
        return try await body()
    }
}
