import Foundation

/// The change generation of every bundle folder being served: 1 when first seen, one more each
/// time a listing of the folder (paths, sizes, modification times) differs from the last one.
/// `refresh` takes a new listing (the poller calls it for every folder every ~150 ms; requests
/// call it so what they answer is current), and `wait` is the long poll behind `.changes`.
final class FolderWatch: Sendable {
    private struct Folder {
        var generation = 1
        var listing: [FolderListing.Entry]
        /// SHA-256 by path, kept while the file's stamp is unchanged.
        var digests: [String: (stamp: FileStamp, sha256: String)] = [:]
        /// The archive last built for a signed folder, and the generation it was built at.
        var archive: (generation: Int, bytes: [UInt8])?
    }

    private struct Waiter {
        var name: String
        var since: Int
        var continuation: AsyncStream<Int>.Continuation
    }

    private struct State {
        var folders: [String: Folder] = [:]
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        var isClosed = false
    }

    private let state = Locked(State())
    /// Held while a listing is taken and compared, so two refreshes of one folder cannot commit
    /// their listings out of order (which would count a change that did not happen).
    private let refreshing = NSLock()

    /// Takes a new listing of the folder `name` at `path` and returns its generation (bumped when
    /// the listing changed since the last one) with the listing.
    @discardableResult
    func refresh(_ name: String, at path: String) -> (generation: Int, listing: [FolderListing.Entry]) {
        refreshing.lock()
        defer { refreshing.unlock() }
        let listing = FolderListing.entries(in: path)
        return state.withLock { state in
            guard var folder = state.folders[name] else {
                state.folders[name] = Folder(listing: listing)
                return (1, listing)
            }
            if folder.listing != listing {
                folder.generation += 1
                folder.listing = listing
                let stamps = Dictionary(listing.map { ($0.path, $0.stamp) }, uniquingKeysWith: { first, _ in first })
                folder.digests = folder.digests.filter { stamps[$0.key] == $0.value.stamp }
                for (id, waiter) in state.waiters where waiter.name == name && waiter.since < folder.generation {
                    waiter.continuation.yield(folder.generation)
                    waiter.continuation.finish()
                    state.waiters[id] = nil
                }
                state.folders[name] = folder
            }
            return (folder.generation, listing)
        }
    }

    /// The generation of `name` as last refreshed (1 for a folder not seen yet).
    func generation(of name: String) -> Int {
        state.withLock { $0.folders[name]?.generation ?? 1 }
    }

    /// Waits until the generation of `name` is greater than `since`, or `timeout` passed, or the
    /// watch is closed; returns the generation then.
    func wait(for name: String, since: Int, timeout: Duration) async -> Int {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let id = state.withLock { state -> Int? in
            let generation = state.folders[name]?.generation ?? 1
            if generation > since || state.isClosed {
                continuation.yield(generation)
                continuation.finish()
                return nil
            }
            state.nextWaiter += 1
            state.waiters[state.nextWaiter] = Waiter(name: name, since: since, continuation: continuation)
            return state.nextWaiter
        }
        let woken = await withTaskGroup(of: Int?.self) { group -> Int? in
            group.addTask {
                for await generation in stream { return generation }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            if let id { self.removeWaiter(id) }
            group.cancelAll()
            return first
        }
        return woken ?? generation(of: name)
    }

    private func removeWaiter(_ id: Int) {
        state.withLock { state in
            state.waiters.removeValue(forKey: id)?.continuation.finish()
        }
    }

    /// Lets long polls wait again after `close` (the server starts again).
    func open() {
        state.withLock { $0.isClosed = false }
    }

    /// How many long polls are waiting (for tests).
    var waitingCount: Int {
        state.withLock { $0.waiters.count }
    }

    /// Answers every waiting long poll with its folder's current generation, and every later
    /// one at once: the server is stopping.
    func close() {
        state.withLock { state in
            state.isClosed = true
            for waiter in state.waiters.values {
                waiter.continuation.yield(state.folders[waiter.name]?.generation ?? 1)
                waiter.continuation.finish()
            }
            state.waiters = [:]
        }
    }

    /// The SHA-256 of `path` in folder `name` if it was computed for this stamp.
    func cachedDigest(_ name: String, path: String, stamp: FileStamp) -> String? {
        state.withLock { state in
            guard let digest = state.folders[name]?.digests[path], digest.stamp == stamp else { return nil }
            return digest.sha256
        }
    }

    func storeDigest(_ name: String, path: String, stamp: FileStamp, sha256: String) {
        state.withLock { $0.folders[name]?.digests[path] = (stamp, sha256) }
    }

    /// The archive built for folder `name` at `generation`, if it is the one kept.
    func cachedArchive(_ name: String, generation: Int) -> [UInt8]? {
        state.withLock { state in
            guard let archive = state.folders[name]?.archive, archive.generation == generation else { return nil }
            return archive.bytes
        }
    }

    func storeArchive(_ name: String, generation: Int, bytes: [UInt8]) {
        state.withLock { $0.folders[name]?.archive = (generation, bytes) }
    }
}
