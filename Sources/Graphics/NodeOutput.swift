/// Where an app's window is shown by drawing its nodes (`FocusNode.draw(in:state:)`)
/// as pixels, instead of a `Canvas` of cells: a Wayland window or a display with `Graphics`'
/// painter behind it (`WaylandNodeOutput`, `DRMNodeOutput`). AppRuntime's
/// `Application.setNodeOutput(_:)` takes one, as TerminalCanvas' `CanvasOutput` is the output of a
/// `Canvas`.
///
/// The app does not draw each frame: after every batch of input and work the runtime calls
/// ``update()``, and the output draws only what changed, when it may show a frame (paced by the
/// compositor's frame callbacks or the display's page flips). An app that changes nothing costs
/// nothing.
@MainActor
public protocol NodeOutput: AnyObject {
    /// The size in points, or `nil` while the output does not know it yet (before a compositor
    /// configured the window). Lay the nodes out to it.
    var pointSize: (width: Double, height: Double)? { get }
    /// Shows what changed since the last frame, now or when the output may show the next one;
    /// does nothing when nothing changed.
    func update()
    /// Draws everything at the next ``update()`` (after something else drew on the screen).
    func invalidate()
    /// Called when a frame the output drew is on the screen (a compositor's frame callback, a
    /// display's page flip): the moment to make the next frame of an animation or a video, as
    /// UIKit's `CADisplayLink` (set a `BitmapNode`'s bitmap, then ask the app for a frame). Frames
    /// made faster are not queued; this paces them to the screen.
    var onFrameShown: (() -> Void)? { get set }
    /// Called when ``pointSize`` changed by itself (a window resized by its compositor, a display
    /// with another mode): lay the nodes out again. Set by the runtime.
    var onResize: (() -> Void)? { get set }
}
