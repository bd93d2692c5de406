import Foundation
import HybridCells
import HybridEventLoop
import HybridTerminal

/// Runs an app with no terminal: presses the keys of a `KeyScript`, lets time pass only where
/// the script says `wait:`, and returns the final frame — the way tests (ours and users')
/// drive apps.
public enum HeadlessDriver {
    /// How long to wait for work in flight (service calls) after each step.
    public static let settleLimit = 5.0

    /// Runs `keys` against `app` and returns the last frame.
    public static func run(_ app: HybridApp, keys: KeyScript) -> Buffer {
        settle(app)
        for step in keys.steps where !app.isFinished {
            switch step {
            case .key(let name):
                app.handle(.key(name))
            case .text(let text):
                for character in text where !app.isFinished {
                    app.handle(.key(character == " " ? "space" : String(character)))
                }
            case .wait(let seconds):
                pass(seconds, on: app.loop)
            }
            settle(app)
        }
        return app.render()
    }

    /// Lets posted jobs and in-flight calls finish (without letting timers run on), then draws
    /// a frame as a terminal would after each event (focus and clicks work on what was drawn).
    static func settle(_ app: HybridApp) {
        defer { _ = app.render() }
        let deadline = Date().addingTimeInterval(settleLimit)
        pass(0, on: app.loop)
        while app.loop.hasWorkInFlight && Date() < deadline && !app.isFinished {
            pass(0.005, on: app.loop)
        }
    }

    /// Runs the loop for `seconds` of real time.
    static func pass(_ seconds: Double, on loop: EventLoop) {
        loop.schedule(after: seconds, keepsAlive: false) { loop.stop() }
        loop.run()
    }
}
