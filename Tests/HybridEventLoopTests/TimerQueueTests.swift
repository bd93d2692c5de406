@testable import HybridEventLoop
import TestSupport
import XCTest

/// The heap behind the loop's timers, checked against the plainest model of it: a list kept in
/// (deadline, order scheduled) order.
final class TimerQueueTests: XCTestCase {
    private func timer(_ id: Int, at deadline: UInt64, keepsAlive: Bool = true) -> TimerQueue.Timer {
        TimerQueue.Timer(id: EventLoop.TimerID(value: id), deadline: deadline, interval: nil, body: {}, keepsAlive: keepsAlive)
    }

    private func drain(_ queue: inout TimerQueue) -> [Int] {
        var ids: [Int] = []
        while !queue.isEmpty { ids.append(queue.removeFirst().id.value) }
        return ids
    }

    func testTimersComeOutByDeadlineAndEqualDeadlinesInTheOrderTheyWentIn() {
        var queue = TimerQueue()
        for (id, deadline) in [(1, 30), (2, 10), (3, 20), (4, 10), (5, 0), (6, 10)] as [(Int, UInt64)] {
            queue.insert(timer(id, at: deadline))
        }
        XCTAssertEqual(queue.first?.id.value, 5)
        XCTAssertEqual(drain(&queue), [5, 2, 4, 6, 3, 1])
    }

    func testRemovingATimerFromTheMiddleKeepsTheRestInOrder() {
        var queue = TimerQueue()
        for id in 1...7 { queue.insert(timer(id, at: UInt64(id * 10))) }
        queue.remove(EventLoop.TimerID(value: 3))
        queue.remove(EventLoop.TimerID(value: 1))
        queue.remove(EventLoop.TimerID(value: 42)) // never scheduled: nothing happens
        XCTAssertEqual(drain(&queue), [2, 4, 5, 6, 7])
    }

    func testOnlyTimersThatKeepTheLoopAliveCountAndOnManualClocksOnlyOnesAlreadyDue() {
        var queue = TimerQueue()
        queue.insert(timer(1, at: 5, keepsAlive: false))
        XCTAssertFalse(queue.keepsAlive)
        queue.insert(timer(2, at: 50))
        XCTAssertTrue(queue.keepsAlive)
        XCTAssertFalse(queue.keepsAlive(dueBy: 10), "the UI clock due at 5 does not count, the timer due at 50 is not due")
        XCTAssertTrue(queue.keepsAlive(dueBy: 50))
        queue.remove(EventLoop.TimerID(value: 2))
        XCTAssertFalse(queue.keepsAlive)
        XCTAssertFalse(queue.keepsAlive(dueBy: .max))
    }

    func testRandomSchedulingCancellingAndFiringAgreeWithASortedList() {
        var generator = SeededRandom(seed: 0x5EED)
        var queue = TimerQueue()
        var model: [(id: Int, deadline: UInt64, order: Int, keepsAlive: Bool)] = []
        var nextID = 1
        for step in 0..<20_000 {
            switch generator.next() % 10 {
            case 0...4:
                let deadline = generator.next() % 64
                let keepsAlive = generator.next() % 3 != 0
                queue.insert(timer(nextID, at: deadline, keepsAlive: keepsAlive))
                model.append((nextID, deadline, step, keepsAlive))
                nextID += 1
            case 5...6 where !model.isEmpty:
                let victim = model.remove(at: generator.next(model.count))
                queue.remove(EventLoop.TimerID(value: victim.id))
            case 7...8 where !model.isEmpty:
                let due = model.min { ($0.deadline, $0.order) < ($1.deadline, $1.order) }!
                model.removeAll { $0.id == due.id }
                XCTAssertEqual(queue.removeFirst().id.value, due.id, "step \(step)")
            default:
                let limit = generator.next() % 64
                XCTAssertEqual(queue.keepsAlive(dueBy: limit), model.contains { $0.keepsAlive && $0.deadline <= limit }, "step \(step)")
            }
            XCTAssertEqual(queue.keepsAlive, model.contains { $0.keepsAlive }, "step \(step)")
        }
        let expected = model.sorted { ($0.deadline, $0.order) < ($1.deadline, $1.order) }.map(\.id)
        XCTAssertEqual(drain(&queue), expected)
    }
}
