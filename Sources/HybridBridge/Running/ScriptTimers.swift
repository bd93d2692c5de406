import HybridEventLoop
import HybridJavaScript

/// A script's timer: its callback, and an `Error` made where it was set (read only when a
/// failure of the callback needs a location).
struct ScriptTimer {
    let callback: ProtectedValue
    let site: ProtectedValue
}

/// The timers scripts set (`setTimeout`, `setInterval`), by the numbers scripts hold, each a
/// timer of the event loop. Loop thread only, like the loop's own timers.
///
/// It knows nothing of JavaScript: `fire` runs a callback (as an entry into JavaScript, in the
/// runtime), so the table can be tested with any callback.
final class ScriptTimers<Callback> {
    private let loop: EventLoop
    /// Runs a callback; false when it ran away, which stops an interval (it would run away
    /// again on every tick).
    private let fire: (_ callback: Callback, _ repeating: Bool) -> Bool
    private var timers: [Int: (id: EventLoop.TimerID, callback: Callback)] = [:]
    private var nextNumber = 1

    init(loop: EventLoop, fire: @escaping (_ callback: Callback, _ repeating: Bool) -> Bool) {
        self.loop = loop
        self.fire = fire
    }

    /// How many timers are set.
    var count: Int { timers.count }

    /// Sets a timer running `callback` after `seconds` (every `seconds` when `repeating`);
    /// returns its number, counting from 1.
    func start(_ callback: Callback, after seconds: Double, repeating: Bool) -> Int {
        let number = nextNumber
        nextNumber += 1
        let id = loop.schedule(after: seconds, repeating: repeating) { [weak self] in
            self?.run(number, repeating: repeating)
        }
        timers[number] = (id, callback)
        return number
    }

    /// Clears the timer `number`; clearing one that ran or never was does nothing.
    func clear(_ number: Int) {
        guard let timer = timers.removeValue(forKey: number) else { return }
        loop.cancel(timer.id)
    }

    /// Clears every timer.
    func clearAll() {
        for timer in timers.values { loop.cancel(timer.id) }
        timers.removeAll()
    }

    private func run(_ number: Int, repeating: Bool) {
        guard let callback = timers[number]?.callback else { return }
        if !repeating { timers[number] = nil }
        if !fire(callback, repeating) && repeating { clear(number) }
    }
}
