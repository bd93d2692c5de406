/// Whether the app needs a frame drawn, and who to tell when one becomes due between inputs
/// (a timer, a service answer or a script changed something): the terminal driver schedules
/// a frame then. Used on the app's loop thread only.
final class FrameRequest {
    /// Called when a frame becomes due outside of drawing.
    var onNeeded: () -> Void = {}
    /// Whether something changed since the last frame.
    var isNeeded = true {
        didSet {
            if isNeeded && !oldValue && !isDrawing { onNeeded() }
        }
    }
    private var isDrawing = false

    /// Runs `draw`; problems found while drawing land in this very frame, so they must not ask
    /// for another one (a broken binding would redraw for ever): the request is settled after.
    func drawing<Frame>(_ draw: () -> Frame) -> Frame {
        isDrawing = true
        defer {
            isDrawing = false
            isNeeded = false
        }
        return draw()
    }
}
