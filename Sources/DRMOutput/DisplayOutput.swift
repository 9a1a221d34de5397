public import ResponderChain

/// An output straight on a DRM display: ``DRMCanvasOutput`` (the app's `Canvas` of cells) or
/// ``DRMNodeOutput`` (the window's nodes in points). What a platform, a frame log or a script
/// needs from either: the device, connector and mode, the changes, the frames shown, the pointer.
///
/// Both share one core: the device opened through the seat or directly, two dumb buffers, page
/// flips paced by their events (one in flight, nothing while idle), the seat's pauses, hot-plug and
/// the mouse pointer drawn over the frame.
@MainActor
public protocol DisplayOutput: PointerSurface {
    /// The device drawn on, such as `/dev/dri/card0`.
    var devicePath: String { get }
    /// The connector drawn on, as last read.
    var connector: DisplayConnector { get }
    /// The mode set.
    var mode: DisplayMode { get }
    /// Whether frames reach the screen now: the seat is here and the display connected.
    var isShowing: Bool { get }
    /// Why displays plugged in later are not followed (no netlink in a container), when they are not.
    var hotPlugNote: String? { get }
    /// How many frames reached the screen.
    var framesPresented: Int { get }
    /// How many flips were given up after a second without their event (the next frame was drawn whole).
    var flipsTimedOut: Int { get }
    /// Called with every ``DisplayChange``.
    var onChange: ((DisplayChange) -> Void)? { get set }
    /// Called for every frame on the screen (for figures: key to flip; for a frame log).
    var onPresented: ((DisplayFrame) -> Void)? { get set }
    /// Whether the mouse pointer is shown, and where (its tip in pixels).
    var pointerPosition: (x: Int, y: Int)? { get }
    /// Reads the connectors again (a display plugged in, unplugged or changed): an unplugged display
    /// pauses drawing, a display back, or in another mode, is drawn whole.
    func rescan()
    /// Shows the mouse pointer with its tip at a position, drawn over the frame.
    ///
    /// - Parameters:
    ///   - x: Pixels from the left of the screen.
    ///   - y: Pixels from the top.
    func movePointer(toX x: Double, y: Double)
    /// Hides the mouse pointer (a touch, or no mouse left).
    func hidePointer()
}
