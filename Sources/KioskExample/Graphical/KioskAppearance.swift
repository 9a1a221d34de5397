import Graphics
import ResponderChain

/// How the kiosk's graphical face looks: Riverside Clinic's brand (a ``Theme`` and a few colours
/// more), its words, its icons, and the sizes of the screen it is laid out for. One object, shared
/// by every widget of the tree once the kiosk draws nodes (``Kiosk/useGraphicalFace(size:language:)``);
/// in a terminal no widget has one.
@MainActor final class KioskAppearance {
    /// The brand's colours and typeface, shared with Graphics' nodes (the on-screen keyboard).
    let theme: Theme
    /// The header's gradient, top to bottom.
    let header: (top: Color, bottom: Color)
    /// Each tile's colour, by the tile's identifier (`checkin`, `find`…).
    let tileColors: [String: Color]
    /// What covers the screen behind a dialog.
    let scrim = Color(hex: 0x0B1F24, alpha: 0.55)
    /// The words.
    var language: KioskLanguage
    /// The sizes, for the screen laid out last.
    private(set) var metrics: KioskMetrics

    init(language: KioskLanguage, size: Size) {
        theme = Self.riverside
        header = (Color(hex: 0x137A7C), Color(hex: 0x0B5A60))
        tileColors = [
            "checkin": Color(hex: 0x0E7C7B), "find": Color(hex: 0x2F64C8), "hours": Color(hex: 0xB8620B),
            "pharmacy": Color(hex: 0x2E8540), "parking": Color(hex: 0x5A4FC4), "help": Color(hex: 0x9C3F8C),
        ]
        self.language = language
        metrics = KioskMetrics(size: size)
        for icon in Artwork.Icon.allCases {
            white[icon] = Artwork.image(icon, ink: .white)
            brand[icon] = Artwork.image(icon, ink: theme.accent)
            muted[icon] = Artwork.image(icon, ink: theme.secondaryText)
        }
    }

    /// Riverside Clinic's theme: deep teal on a cool light grey, white cards, text at 14:1 and
    /// secondary text at 6:1 on them, and a burnt orange for focus that stands out from the teal and
    /// keeps 4.5:1 on white (WCAG 1.4.11 asks 3:1 of a focus indicator).
    static let riverside = Theme(
        accent: Color(hex: 0x0B6E70), onAccent: .white, background: Color(hex: 0xEEF3F3), surface: .white,
        text: Color(hex: 0x122A2E), secondaryText: Color(hex: 0x4A5F63), outline: Color(hex: 0xC9D6D7),
        focus: Color(hex: 0xD1460F), fontFamily: "Noto Sans", cornerRadius: 20)

    /// The layout's sizes for a new screen size.
    func resize(to size: Size) { metrics = KioskMetrics(size: size) }

    private var white: [Artwork.Icon: ImageSource] = [:]
    private var brand: [Artwork.Icon: ImageSource] = [:]
    private var muted: [Artwork.Icon: ImageSource] = [:]

    /// An icon in white (on a coloured plate).
    func whiteIcon(_ icon: Artwork.Icon) -> ImageSource { white[icon]! }
    /// An icon in the brand's colour.
    func brandIcon(_ icon: Artwork.Icon) -> ImageSource { brand[icon]! }
    /// An icon in the secondary text's colour.
    func mutedIcon(_ icon: Artwork.Icon) -> ImageSource { muted[icon]! }

    /// A font of the theme's family, at a size in layout units.
    func font(_ size: Double, _ weight: Font.Weight = .regular) -> Font {
        theme.font((size * metrics.unit).rounded(), weight)
    }
}

/// The sizes of the graphical face for one screen, in points: a unit that is 1 at 1280x800 and grows
/// or shrinks with the screen (from 0.75 to 1.5), and the bands the screen is cut into.
struct KioskMetrics: Sendable {
    let size: Size
    let unit: Double
    /// The space around and between the large areas.
    let margin: Double
    /// The space between items.
    let gap: Double
    let headerHeight: Double
    let footerHeight: Double
    let sidebarWidth: Double
    /// The height of a menu entry, a button, a checkbox row: at least 60 points (a finger on a
    /// public screen) on a screen of 1280x720 points or more, 48 on a smaller one.
    let controlHeight: Double
    /// The smallest target a finger should have here.
    let minimumTarget: Double
    let cornerRadius: Double

    init(size: Size) {
        self.size = size
        let unit = min(1.5, max(0.75, min(size.width / 1280, size.height / 800)))
        self.unit = unit
        margin = (24 * unit).rounded()
        gap = (16 * unit).rounded()
        headerHeight = (96 * unit).rounded()
        footerHeight = (60 * unit).rounded()
        sidebarWidth = (min(300 * unit, size.width * 0.26)).rounded()
        minimumTarget = size.width >= 1280 && size.height >= 720 ? 60 : 48
        controlHeight = max(minimumTarget, (68 * unit).rounded())
        cornerRadius = (20 * unit).rounded()
    }

    /// The area between the header and the footer, inside the margins.
    var body: Rect {
        Rect(
            x: margin, y: headerHeight + margin, width: size.width - 2 * margin,
            height: size.height - headerHeight - footerHeight - 2 * margin)
    }
}
