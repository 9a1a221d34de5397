/// How many pixels a point takes on a display: the scale ``DRMNodeOutput`` draws at unless its
/// options name one.
///
/// The rule is GNOME's (mutter picks the supported scale nearest to the display's pixels per inch
/// divided by a target), with a kiosk's target and steps:
///
/// 1. The display's density: its diagonal in pixels over its diagonal in inches, from the size the
///    connector reports (the EDID's, in millimetres).
/// 2. The scales offered: 1, 1.25, 1.5 and 2 (fractional steps, as GNOME and Windows offer; a
///    finer step buys little on a kiosk and a coarser one leaves a 10-inch 1280x800 panel at 1 or
///    2), each only when it leaves at least 800x480 points of area (mutter's smallest logical
///    area), so that a small panel keeps room for a screen.
/// 3. The scale whose points per inch come nearest, by ratio, to ``targetPointsPerInch`` (103,
///    the geometric middle of 96, Qt's and Windows' logical DPI, and 110, mutter's target for
///    displays read at arm's length or further): a point is then about 1/96 to 1/110 inch, so
///    that the 44-point touch targets WCAG asks for are about 11 mm on any panel. On a tie the
///    smaller scale.
/// 4. Scale 1 when the size is unknown (0 mm: projectors, virtual displays without EDID) or is an
///    aspect ratio written as a size (16x9, 16x10, 160x90, 160x100, 1600x900 and 1600x1000 mm, as
///    mutter's `meta_monitor_has_aspect_as_size` rejects).
///
/// | display | pixels per inch | scale | points per inch | points |
/// |---|---:|---:|---:|---|
/// | QEMU's virtio-gpu, 1280x800 (its EDID says 320x200 mm) | 102 | 1 | 102 | 1280x800 |
/// | 7-inch 800x480 panel | 133 | 1 | 133 | 800x480 (1.25 leaves too little) |
/// | 10.1-inch 1280x800 panel | 149 | 1.5 | 99 | 853x533 |
/// | 15.6-inch 1920x1080 | 141 | 1.5 | 94 | 1280x720 |
/// | 21.5-inch 1920x1080 | 102 | 1 | 102 | 1920x1080 |
/// | 27-inch 3840x2160 | 163 | 1.5 | 109 | 2560x1440 |
/// | 13.3-inch 2560x1600 | 227 | 2 | 113 | 1280x800 |
public enum DisplayScale {
    /// The scales offered, smallest first.
    public static let steps: [Double] = [1, 1.25, 1.5, 2]
    /// The points per inch aimed at.
    public static let targetPointsPerInch = 103.0
    /// The least area in points a scale must leave (800x480, mutter's `MINIMUM_LOGICAL_AREA`).
    public static let minimumPointArea = 800.0 * 480.0

    /// The display's density: pixels per inch along its diagonal, or `nil` when its size is unknown
    /// or an aspect ratio.
    ///
    /// - Parameters:
    ///   - mode: The mode shown.
    ///   - connector: The connector, with the display's size in millimetres.
    /// - Returns: Pixels per inch, or `nil`.
    public static func pixelsPerInch(of mode: DisplayMode, on connector: DisplayConnector) -> Double? {
        let (width, height) = (connector.physicalWidth, connector.physicalHeight)
        guard width > 0, height > 0, mode.width > 0, mode.height > 0 else { return nil }
        let aspects = [(16, 9), (16, 10), (160, 90), (160, 100), (1600, 900), (1600, 1000)]
        if aspects.contains(where: { $0 == (width, height) }) { return nil }
        let inches = (Double(width * width + height * height)).squareRoot() / 25.4
        return (Double(mode.width * mode.width + mode.height * mode.height)).squareRoot() / inches
    }

    /// The scale for a mode on a display, by the rule above.
    ///
    /// - Parameters:
    ///   - mode: The mode shown.
    ///   - connector: The connector, with the display's size in millimetres.
    /// - Returns: One of ``steps``.
    public static func automatic(for mode: DisplayMode, on connector: DisplayConnector) -> Double {
        guard let density = pixelsPerInch(of: mode, on: connector) else { return 1 }
        let area = Double(mode.width) * Double(mode.height)
        var best = 1.0
        var bestDistance = Double.infinity
        for scale in steps where scale == 1 || area / (scale * scale) >= minimumPointArea {
            let ratio = density / scale / targetPointsPerInch
            let distance = ratio >= 1 ? ratio : 1 / ratio
            if distance < bestDistance - 1e-9 {
                best = scale
                bestDistance = distance
            }
        }
        return best
    }
}
