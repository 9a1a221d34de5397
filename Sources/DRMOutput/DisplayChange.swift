/// Something that happened to a display (``DisplayOutput/onChange``).
public enum DisplayChange: Hashable, Sendable {
    /// The seat was taken away (another VT): nothing is drawn until it is back.
    case paused
    /// The seat is back: the mode was set again and the whole frame drawn.
    case resumed
    /// The display was unplugged (its connector reads disconnected).
    case disconnected(connector: String)
    /// A display is connected (again), or its mode changed: drawn whole in this mode.
    case connected(connector: String, mode: DisplayMode)
    /// Drawing was refused or failed (said once until a frame is shown again): another program
    /// is DRM master, the driver refused, the display does not offer the mode asked for. The
    /// frame waits; the next frame the app asks for (``DRMCanvasOutput/show(_:)``,
    /// ``DRMNodeOutput/update()``) tries again.
    case failed(DisplayError)
}
