/// Where an app's frames are shown: the terminal (`TerminalOutput` in TerminalIO), a Wayland
/// surface (`WaylandCanvasOutput` in WaylandClient), a DRM display next. The app draws one
/// ``Canvas``; each output shows it in its own way (escape sequences, pixels).
@MainActor
public protocol CanvasOutput: AnyObject {
    /// The size to draw, in cells, or `nil` when the output does not know it yet.
    var size: (columns: Int, rows: Int)? { get }
    /// Shows a frame: only what changed since the last one, where the output can.
    ///
    /// - Parameter canvas: The frame.
    func show(_ canvas: Canvas)
    /// Forgets what is shown, so that the next ``show(_:)`` draws everything (after something
    /// else wrote to the screen).
    func invalidate()
    /// Called when ``size`` changed by itself (a window resized by its compositor), so that the
    /// app draws a frame of the new size; set by the runtime that shows the app. An output whose
    /// size changes are signalled otherwise (a terminal's `SIGWINCH`) never calls it.
    var onResize: (() -> Void)? { get set }
}

extension CanvasOutput {
    /// Never called: the output's size changes are signalled otherwise.
    public var onResize: (() -> Void)? {
        get { nil }
        set {}
    }
}
