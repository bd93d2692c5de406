import Foundation
import HybridCells
import HybridEventLoop
import HybridTerminal

/// Runs an app with no terminal: presses the keys of a `KeyScript`, lets time pass only where
/// the script says `wait:`, and returns the final frame — the way tests (ours and users')
/// drive apps.
///
/// Time passes on the app's loop (`EventLoop.advance(by:)`). On a loop with a manual clock,
/// which `hybrid run --headless` uses (`RunOptions.makeEventLoop`; a development URL keeps real
/// time, since its edits arrive from outside), `wait:1s` takes no wall time: the loop steps from one
/// timer to the next, so timers still fire in order and a run is the same every time. Work in
/// flight (service calls, a boot waiting for `hybrid.ready()`) is still waited for in real
/// time, bounded by `settleLimit` after each step.
public enum HeadlessDriver {
    /// How long to wait (real time) for work in flight (service calls) after each step.
    public static let settleLimit = 5.0
    /// The slice of time `settle` lets pass at once while work is in flight.
    static let settleSlice = 0.005

    /// Runs `keys` against `app` and returns the last frame.
    public static func run(_ app: HybridApp, keys: KeyScript) -> Buffer {
        var frame = settle(app)
        for step in keys.steps where !app.isFinished {
            switch step {
            case .key(let name):
                app.handle(.key(name))
            case .text(let text):
                for character in text where !app.isFinished {
                    app.handle(.key(character == " " ? "space" : String(character)))
                }
            case .wait(let seconds):
                app.loop.advance(by: seconds)
            }
            frame = settle(app)
        }
        // Nothing happened since the last settle drew it: drawing again would give the same frame.
        return frame
    }

    /// Lets posted jobs and in-flight calls finish, then draws a frame as a terminal would
    /// after each event (focus and clicks work on what was drawn), and returns it. Timers run
    /// on only while work is in flight, as they would while a terminal session waits for it.
    static func settle(_ app: HybridApp) -> Buffer {
        let deadline = Date().addingTimeInterval(settleLimit)
        app.loop.advance(by: 0)
        while app.loop.hasWorkInFlight && Date() < deadline && !app.isFinished {
            app.loop.advance(by: settleSlice)
        }
        return app.render()
    }
}
