/// Which device, connector and mode a display output uses: ``DRMCanvasOutput`` and ``DRMNodeOutput``
/// take the same.
public struct DisplayOptions: Hashable, Sendable {
    /// The DRM device, such as `/dev/dri/card1`; `nil` for the first with a connected display.
    public var device: String?
    /// The connector, such as `HDMI-A-1`; `nil` for the first connected one.
    public var connector: String?
    /// The mode's size in pixels; `nil` for the display's preferred mode (its native resolution).
    public var modeSize: DisplayPixelSize?
    /// Whether a display plugged in, unplugged or changed is followed: udev's `change` events of
    /// the device (the kernel's hot-plug events) call ``DisplayOutput/rescan()``. On by default.
    public var followsHotPlug = true

    /// The first connected display in its preferred mode.
    ///
    /// - Parameters:
    ///   - device: The DRM device, or `nil`.
    ///   - connector: The connector, or `nil`.
    ///   - modeSize: The mode's size, or `nil`.
    public init(device: String? = nil, connector: String? = nil, modeSize: DisplayPixelSize? = nil) {
        self.device = device
        self.connector = connector
        self.modeSize = modeSize
    }
}

/// A size in pixels: a display mode's.
public struct DisplayPixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// A size.
    ///
    /// - Parameters:
    ///   - width: Pixels across.
    ///   - height: Pixels down.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `1280x800`.
    public var description: String { "\(width)x\(height)" }
}
