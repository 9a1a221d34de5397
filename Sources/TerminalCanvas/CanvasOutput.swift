/// Where an app's frames are shown: the terminal today (`TerminalOutput` in TerminalIO), a
/// Wayland surface or a DRM display next. The app draws one ``Canvas``; each output shows it in
/// its own way (escape sequences, pixels).
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
}
