public import TerminalCanvas

/// A terminal as a `CanvasOutput`: each frame is written as the escape sequences that turn the
/// last frame into it (`Canvas.frame(replacing:)`), row by row.
@MainActor
public final class TerminalOutput: CanvasOutput {
    /// The terminal written to.
    public let terminal: TerminalKeyboard
    private var shown: Canvas?

    /// Shows frames on a terminal.
    ///
    /// - Parameter terminal: The terminal, in raw mode.
    public init(terminal: TerminalKeyboard) {
        self.terminal = terminal
    }

    /// The terminal's size, when it reports one.
    public var size: (columns: Int, rows: Int)? { terminal.size }

    /// Writes what changed since the last frame (everything after ``invalidate()`` or a size change).
    ///
    /// - Parameter canvas: The frame.
    public func show(_ canvas: Canvas) {
        // A frame the terminal did not take whole is drawn whole next time.
        shown = terminal.write(canvas.frame(replacing: shown)) ? canvas : nil
    }

    /// The next frame is written whole.
    public func invalidate() {
        shown = nil
    }
}
