/// An event loop's timers in the order they fall due: a binary heap on (deadline, order
/// scheduled), so scheduling, cancelling and taking the next timer each cost O(log n) however
/// many timers a script keeps (a sorted array made 8,000 `setTimeout`s outlast a script's time
/// limit). Equal deadlines come out in the order they went in, so `setTimeout(a, 0);
/// setTimeout(b, 0)` runs `a` first. Not thread-safe: the loop thread owns it.
struct TimerQueue {
    /// A timer as the loop runs it.
    struct Timer {
        var id: EventLoop.TimerID
        var deadline: UInt64
        /// Between runs, for a repeating timer.
        var interval: UInt64?
        var body: () -> Void
        /// Whether it keeps `run(untilIdle:)` going (a UI clock does not).
        var keepsAlive: Bool
    }

    private struct Entry {
        var timer: Timer
        /// When it went in, which orders equal deadlines.
        var order: UInt64

        func isDue(before other: Entry) -> Bool {
            (timer.deadline, order) < (other.timer.deadline, other.order)
        }
    }

    private var heap: [Entry] = []
    /// Where each timer sits in `heap`, kept as entries move, so cancelling finds it at once.
    private var positions: [EventLoop.TimerID: Int] = [:]
    private var nextOrder: UInt64 = 0
    /// How many timers keep the loop alive.
    private var keepingAlive = 0

    /// The timer due first, if any.
    var first: Timer? { heap.first?.timer }

    var isEmpty: Bool { heap.isEmpty }

    /// Whether any timer keeps the loop alive.
    var keepsAlive: Bool { keepingAlive > 0 }

    /// Whether a timer that keeps the loop alive is due at or before `deadline`. Visits only
    /// the timers due by then (a heap's children are never due before their parent).
    func keepsAlive(dueBy deadline: UInt64) -> Bool {
        guard keepingAlive > 0 else { return false }
        var pending = heap.isEmpty ? [] : [0]
        while let index = pending.popLast() {
            let timer = heap[index].timer
            guard timer.deadline <= deadline else { continue }
            if timer.keepsAlive { return true }
            let left = 2 * index + 1
            if left < heap.count { pending.append(left) }
            if left + 1 < heap.count { pending.append(left + 1) }
        }
        return false
    }

    /// Adds `timer`, due after every timer already in with the same deadline. Its id must not
    /// be in the queue already.
    mutating func insert(_ timer: Timer) {
        precondition(positions[timer.id] == nil, "timer \(timer.id.value) is scheduled twice")
        heap.append(Entry(timer: timer, order: nextOrder))
        nextOrder += 1
        if timer.keepsAlive { keepingAlive += 1 }
        positions[timer.id] = heap.count - 1
        siftUp(heap.count - 1)
    }

    /// Takes out the timer due first. The queue must not be empty.
    mutating func removeFirst() -> Timer {
        remove(at: 0)
    }

    /// Takes out the timer `id`; nothing when it is not in the queue (it ran, or was cancelled).
    mutating func remove(_ id: EventLoop.TimerID) {
        if let index = positions[id] { _ = remove(at: index) }
    }

    private mutating func remove(at index: Int) -> Timer {
        let removed = heap[index].timer
        positions[removed.id] = nil
        if removed.keepsAlive { keepingAlive -= 1 }
        let last = heap.removeLast()
        if index < heap.count {
            heap[index] = last
            positions[last.timer.id] = index
            // The entry moved in from the end may belong above its new place or below it.
            siftDown(siftUp(index))
        }
        return removed
    }

    /// Moves the entry at `index` up past the parents due after it; returns where it ends.
    @discardableResult
    private mutating func siftUp(_ index: Int) -> Int {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].isDue(before: heap[parent]) else { break }
            swapAt(child, parent)
            child = parent
        }
        return child
    }

    /// Moves the entry at `index` down past the children due before it.
    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            var first = parent
            let left = 2 * parent + 1
            if left < heap.count && heap[left].isDue(before: heap[first]) { first = left }
            if left + 1 < heap.count && heap[left + 1].isDue(before: heap[first]) { first = left + 1 }
            guard first != parent else { return }
            swapAt(parent, first)
            parent = first
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        positions[heap[a].timer.id] = a
        positions[heap[b].timer.id] = b
    }
}
