/// The loop as a Swift task executor: a task started with `Task(executorPreference: loop)`
/// runs its nonisolated code on the loop thread, as posted jobs.
///
/// The bridge starts async services' work this way, so a service that answers without
/// waiting for anything answers in the same turn of the loop, with no hop to another thread
/// and back; once it awaits work elsewhere (an actor, I/O on NIO's threads), it comes back to
/// the loop through `post(_:)`, as any result from another thread does.
extension EventLoop: TaskExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        post { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
