import Foundation
import HybridCells
import HybridEventLoop
import HybridTerminal

/// Runs an app in a real terminal: raw input through the loop, frames written as diffs (only
/// changed cells, inside synchronized-output markers where the terminal has them), at most 60
/// frames a second and only when something changed; a resize redraws everything at the new
/// size. The first frame waits for the terminal's answers to the session's questions, at most
/// `answerWait`, so that it already uses what the terminal has.
public final class TerminalDriver {
    /// The shortest time between two frames.
    public static let frameInterval = 1.0 / 60
    /// How long the first frame waits for a terminal that does not answer (a local terminal
    /// answers within a millisecond; over a slow link the first frame simply goes first).
    public static let answerWait = 0.1
    /// How often spinners turn.
    public static let tickInterval = 0.08

    private let app: HybridApp
    private let session: TerminalSession
    private let encoder: FrameEncoder
    private var decoder = InputDecoder()
    private var previous: Buffer?
    private var lastFrame = Date.distantPast
    private var frameScheduled = false
    private var isDrawing = false
    /// Frames wait until the terminal answered (or `answerWait` passed).
    private var waitingForAnswers = true
    private var escapeTimer: EventLoop.TimerID?

    /// A driver for `app` on `session`, with colours degraded to `colors`; `movesLines` says
    /// whether the terminal has insert line and delete line for scrolling.
    public init(app: HybridApp, session: TerminalSession, colors: ColorSupport, movesLines: Bool) {
        self.app = app
        self.session = session
        encoder = FrameEncoder(colors: colors, movesLines: movesLines)
    }

    /// Runs until the app quits.
    public func run() {
        let loop = app.loop
        app.size = session.size()
        app.onFrameNeeded = { [unowned self] in requestFrame() }
        loop.watch(session.input) { [unowned self] in readInput() }
        loop.watch(session.resizeDescriptor) { [unowned self] in
            guard session.takeResize() else { return }
            app.size = session.size()
            previous = nil
            if !waitingForAnswers { draw() }
        }
        loop.schedule(after: Self.tickInterval, repeating: true, keepsAlive: false) { [unowned self] in
            if app.tick() { requestFrame() }
        }
        loop.schedule(after: Self.answerWait, keepsAlive: false) { [unowned self] in drawFirstFrame() }
        while !app.isFinished {
            loop.run()
        }
        loop.unwatch(session.input)
        loop.unwatch(session.resizeDescriptor)
    }

    private func readInput() {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(session.input, &bytes, bytes.count)
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
        guard count > 0 else {
            // End of input (the terminal went away): leave as if quitting.
            app.quit()
            return
        }
        let events = decoder.feed(bytes[0..<count])
        for report in decoder.takeReports() {
            session.take(report)
            if report == .deviceAttributes { drawFirstFrame() }
        }
        for event in events {
            if event == .key("ctrl+z") {
                suspend()
                continue
            }
            app.handle(event)
        }
        // A lone ESC is the Esc key unless the rest of a sequence follows at once; more input
        // restarts the wait.
        if let escapeTimer { app.loop.cancel(escapeTimer) }
        escapeTimer = nil
        if decoder.hasPending {
            escapeTimer = app.loop.schedule(after: 0.03, keepsAlive: false) { [unowned self] in
                escapeTimer = nil
                for event in decoder.flush() { app.handle(event) }
                requestFrame()
            }
        }
        requestFrame()
    }

    /// Ctrl-Z: the terminal goes back to the shell until `fg`, then the whole screen is drawn
    /// again, at the terminal's size then.
    private func suspend() {
        session.suspend()
        app.size = session.size()
        previous = nil
        draw()
    }

    private func drawFirstFrame() {
        guard waitingForAnswers else { return }
        waitingForAnswers = false
        draw()
    }

    /// Draws now, or at the end of the current frame interval.
    private func requestFrame() {
        guard app.needsFrame, !waitingForAnswers, !frameScheduled, !isDrawing, !app.isFinished else { return }
        let wait = Self.frameInterval - Date().timeIntervalSince(lastFrame)
        if wait <= 0 {
            draw()
        } else {
            frameScheduled = true
            app.loop.schedule(after: wait, keepsAlive: false) { [unowned self] in
                frameScheduled = false
                draw()
            }
        }
    }

    private func draw() {
        guard !app.isFinished else { return }
        isDrawing = true
        defer { isDrawing = false }
        let next = app.render()
        let changes = encoder.encode(from: previous?.width == next.width && previous?.height == next.height ? previous : nil, to: next)
        if !changes.isEmpty {
            session.write(session.capabilities.synchronizedOutput
                          ? TerminalControl.beginSynchronizedUpdate + changes + TerminalControl.endSynchronizedUpdate
                          : changes)
        }
        previous = next
        lastFrame = Date()
    }
}
