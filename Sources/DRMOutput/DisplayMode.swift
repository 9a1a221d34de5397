/// A display mode a connector offers: its size in pixels and refresh rate.
public struct DisplayMode: Hashable, Sendable, CustomStringConvertible {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// Vertical refresh in hertz (the kernel's rounded `vrefresh`).
    public var refresh: Int
    /// Whether the display prefers it (`DRM_MODE_TYPE_PREFERRED`: its native resolution).
    public var isPreferred: Bool

    /// A mode.
    ///
    /// - Parameters:
    ///   - width: Pixels across.
    ///   - height: Pixels down.
    ///   - refresh: Hertz.
    ///   - isPreferred: Whether the display prefers it.
    public init(width: Int, height: Int, refresh: Int, isPreferred: Bool = false) {
        self.width = width
        self.height = height
        self.refresh = refresh
        self.isPreferred = isPreferred
    }

    /// `1280x800@75`.
    public var description: String { "\(width)x\(height)@\(refresh)" }
}

/// A connector of a DRM device as the kernel reported it: a display's socket (`HDMI-A-1`,
/// `Virtual-1`), whether something is plugged in, and its modes.
public struct DisplayConnector: Hashable, Sendable, CustomStringConvertible {
    /// The kernel's object id.
    public var id: UInt32
    /// The name `weston`, `wlr-randr` and `/sys/class/drm` use: its type and number, `HDMI-A-1`.
    public var name: String
    /// Whether a display is connected.
    public var isConnected: Bool
    /// The modes it offers, in the kernel's order (the preferred one first, usually).
    public var modes: [DisplayMode]
    /// The CRTCs that can drive it, in the device's order; the one driving it now first.
    public var crtcs: [UInt32]
    /// The display's width in millimetres, as its EDID says (`mmWidth`); 0 when unknown.
    public var physicalWidth: Int
    /// The display's height in millimetres (`mmHeight`); 0 when unknown.
    public var physicalHeight: Int

    /// A connector.
    ///
    /// - Parameters:
    ///   - id: The object id.
    ///   - name: Its name.
    ///   - isConnected: Whether a display is connected.
    ///   - modes: Its modes.
    ///   - crtcs: The CRTCs that can drive it.
    ///   - physicalWidth: The display's width in millimetres; 0 (the default) when unknown.
    ///   - physicalHeight: Its height in millimetres; 0 when unknown.
    public init(
        id: UInt32, name: String, isConnected: Bool, modes: [DisplayMode], crtcs: [UInt32], physicalWidth: Int = 0,
        physicalHeight: Int = 0
    ) {
        self.id = id
        self.name = name
        self.isConnected = isConnected
        self.modes = modes
        self.crtcs = crtcs
        self.physicalWidth = physicalWidth
        self.physicalHeight = physicalHeight
    }

    /// `HDMI-A-1 (connected, 1920x1080@60)` or `HDMI-A-2 (disconnected)`.
    public var description: String {
        guard isConnected else { return "\(name) (disconnected)" }
        let mode = modes.first(where: \.isPreferred) ?? modes.first
        return "\(name) (connected\(mode.map { ", \($0)" } ?? ", no modes"))"
    }

    /// The kernel's connector type names (`DRM_MODE_CONNECTOR_*`, as `drmModeGetConnectorTypeName`
    /// gives them in newer libdrm), by type number.
    static let typeNames = [
        "Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS", "Component", "DIN", "DP",
        "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI", "USB",
    ]

    /// A connector's name from its type and number: `HDMI-A-1`.
    ///
    /// - Parameters:
    ///   - type: `DRM_MODE_CONNECTOR_*`.
    ///   - number: Its number among connectors of that type.
    /// - Returns: The name.
    static func name(type: UInt32, number: UInt32) -> String {
        let typeName = type < typeNames.count ? typeNames[Int(type)] : "Unknown\(type)"
        return "\(typeName)-\(number)"
    }
}

/// Which connector and mode to use: pure, so that every rule and its error are tested without a GPU.
enum ConnectorChoice {
    /// The connector and mode chosen.
    struct Chosen: Hashable {
        var connector: DisplayConnector
        var modeIndex: Int
        var crtc: UInt32
        var mode: DisplayMode { connector.modes[modeIndex] }
    }

    /// The named connector (or the first connected one) and its mode.
    ///
    /// - Parameters:
    ///   - connectors: The device's connectors.
    ///   - name: The connector asked for, or `nil` for the first connected one.
    ///   - size: The mode asked for (width and height), or `nil` for the preferred one (else the first).
    ///   - path: The device, for the messages.
    /// - Returns: The choice, or the error listing every connector and its state.
    static func choose(
        _ connectors: [DisplayConnector], name: String?, size: (width: Int, height: Int)?, path: String
    ) -> Result<Chosen, DisplayError> {
        let listed = connectors.isEmpty ? "it has no connectors" : connectors.map(\.description).joined(separator: ", ")
        if let name, !connectors.contains(where: { $0.name == name }) {
            return .failure(
                DisplayError(
                    code: .noConnector, path: path,
                    message: "\(path) has no connector named \(name) (\(listed)); name one of those"))
        }
        let pool = name.map { name in connectors.filter { $0.name == name } } ?? connectors
        guard let connector = pool.first(where: \.isConnected) else {
            let what = name.map { "\($0) on \(path) is not connected" } ?? "\(path) has no connected display"
            return .failure(
                DisplayError(
                    code: .noConnector, path: path,
                    message: "\(what) (\(listed)): plug a display in, or check its cable"))
        }
        guard !connector.modes.isEmpty else {
            return .failure(
                DisplayError(
                    code: .noConnector, path: path,
                    message: "\(connector.name) on \(path) is connected but offers no mode (its EDID could not be read)"
                ))
        }
        let index: Int
        if let size {
            guard let found = connector.modes.firstIndex(where: { $0.width == size.width && $0.height == size.height })
            else {
                let offered = Set(connector.modes.map { "\($0.width)x\($0.height)" }).sorted().joined(separator: ", ")
                return .failure(
                    DisplayError(
                        code: .noConnector, path: path,
                        message: "\(connector.name) offers no \(size.width)x\(size.height) mode (it offers \(offered))")
                )
            }
            index = found
        } else {
            index = connector.modes.firstIndex(where: \.isPreferred) ?? 0
        }
        guard let crtc = connector.crtcs.first else {
            return .failure(
                DisplayError(
                    code: .unsupported, path: path,
                    message: "no CRTC of \(path) can drive \(connector.name): every one is in use"))
        }
        return .success(Chosen(connector: connector, modeIndex: index, crtc: crtc))
    }
}
