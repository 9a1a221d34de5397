import ResponderChain

/// The kiosk's logo and icons: small SVG documents written by hand and compiled into the program,
/// so that an installed binary draws them with no image files beside it (`ImageSource(svg:name:)`).
///
/// The icons are drawn on a 48-point grid with round 3.5-point strokes in one colour (`INK` in the
/// templates), so that one icon serves on a coloured tile (white) and in the menu (the brand's).
enum Artwork {
    /// The icons the kiosk draws.
    enum Icon: String, CaseIterable, Sendable {
        case checkIn, directory, hours, pharmacy, parking, help, home, search, info
    }

    /// Riverside Clinic's mark: a white cross over two waves (the river) on a teal tile.
    static let logo = ImageSource(svg: logoDocument, name: "riverside-logo.svg")

    /// An icon in one colour.
    ///
    /// - Parameters:
    ///   - icon: The icon.
    ///   - ink: Its colour.
    /// - Returns: The image.
    static func image(_ icon: Icon, ink: Color) -> ImageSource {
        let body = icons[icon] ?? ""
        let document = """
            <svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48" fill="none" \
            stroke="\(ink.svgValue)" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round">
            \(body)
            </svg>
            """
        return ImageSource(
            svg: document.replacing("\"INK\"", with: "\"\(ink.svgValue)\""), name: "\(icon.rawValue).svg")
    }

    static let logoDocument = """
        <svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">
          <defs>
            <linearGradient id="tile" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0" stop-color="#21A39C"/>
              <stop offset="1" stop-color="#0B5D63"/>
            </linearGradient>
          </defs>
          <rect x="3" y="3" width="90" height="90" rx="26" fill="url(#tile)" stroke="#FFFFFF" stroke-width="4"/>
          <path d="M39 14h18v15h15v18H57v6H39v-6H24V29h15z" fill="#FFFFFF"/>
          <path d="M17 66c7.7-5.3 15.3-5.3 23 0s15.3 5.3 23 0 12.3-5.3 16-2.7" fill="none" stroke="#FFFFFF"
                stroke-width="6" stroke-linecap="round"/>
          <path d="M17 79c7.7-5.3 15.3-5.3 23 0s15.3 5.3 23 0 12.3-5.3 16-2.7" fill="none" stroke="#A7E8E1"
                stroke-width="6" stroke-linecap="round"/>
        </svg>
        """

    /// The icons' shapes (inside the template's `<svg>`): `INK` stands for the colour where a shape
    /// is filled rather than stroked.
    static let icons: [Icon: String] = [
        .checkIn: """
        <path d="M17 9h-3a4 4 0 0 0-4 4v25a4 4 0 0 0 4 4h20a4 4 0 0 0 4-4V13a4 4 0 0 0-4-4h-3"/>
        <rect x="17" y="5" width="14" height="8" rx="2.5"/>
        <path d="M16.5 27.5l5 5 10-10.5"/>
        """,
        .directory: """
        <circle cx="18" cy="17" r="6.5"/>
        <path d="M6 39c0-7 5.4-11.5 12-11.5S30 32 30 39"/>
        <circle cx="33.5" cy="15" r="5"/>
        <path d="M32 24.5c5.8 0 10 4.2 10 10.5"/>
        """,
        .hours: """
        <circle cx="24" cy="24" r="17.5"/>
        <path d="M24 13.5V24l7.5 5"/>
        """,
        .pharmacy: """
        <g transform="rotate(-45 24 24)">
          <rect x="6" y="15.5" width="36" height="17" rx="8.5"/>
          <path d="M24 15.5v17"/>
        </g>
        """,
        .parking: """
        <rect x="7.5" y="7.5" width="33" height="33" rx="8"/>
        <path d="M19.5 34V14.5h7a6.2 6.2 0 0 1 0 12.4h-7"/>
        """,
        .help: """
        <circle cx="24" cy="24" r="17.5"/>
        <path d="M18.5 19.5a5.6 5.6 0 1 1 7.8 5.1c-1.4.6-2.3 1.6-2.3 3.1v1.3"/>
        <circle cx="24" cy="34.5" r="2.2" fill="INK" stroke="none"/>
        """,
        .home: """
        <path d="M7 22.5L24 8.5l17 14"/>
        <path d="M11.5 19v20h9.5V29.5h6V39h9.5V19"/>
        """,
        .search: """
        <circle cx="21" cy="21" r="12.5"/>
        <path d="M30.5 30.5L41 41"/>
        """,
        .info: """
        <circle cx="24" cy="24" r="17.5"/>
        <path d="M24 22v11"/>
        <circle cx="24" cy="15.5" r="2.2" fill="INK" stroke="none"/>
        """,
    ]
}

extension Color {
    /// `#RRGGBB`, as SVG writes a colour (the alpha left out).
    var svgValue: String { String(description.prefix(7)) }
}
