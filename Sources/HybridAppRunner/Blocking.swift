import Dispatch

/// Async work run to the end from synchronous code: a command's `run()`, which
/// swift-argument-parser calls synchronously, before any loop of the app runs.
public enum Blocking {
    /// Runs `body` in a task and waits for it; answers what it threw, or `nil`.
    public static func run<Failure: Error>(_ body: @escaping @Sendable () async throws(Failure) -> Void) -> Failure? {
        let outcome = Outcome<Failure>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do throws(Failure) {
                try await body()
            } catch {
                outcome.error = error
            }
            done.signal()
        }
        done.wait()
        return outcome.error
    }

    /// Written by the task before it signals, read after the wait: never at the same time.
    private final class Outcome<Failure: Error>: @unchecked Sendable {
        var error: Failure?
    }
}
