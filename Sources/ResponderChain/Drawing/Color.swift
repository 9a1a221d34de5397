/// A colour in sRGB with an alpha, each component from 0 to 1: what views fill, stroke and write
/// text in.
///
/// ```swift
/// let brand = Color(hex: 0x0B5FFF)          // #0B5FFF, opaque
/// let scrim = Color.black.opacity(0.4)
/// ```
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// The red component, 0 to 1.
    public var red: Double
    /// The green component, 0 to 1.
    public var green: Double
    /// The blue component, 0 to 1.
    public var blue: Double
    /// The opacity, 0 (transparent) to 1 (opaque).
    public var alpha: Double

    /// Creates a colour; components outside 0…1 are clamped (a NaN is 0).
    ///
    /// - Parameters:
    ///   - red: The red component.
    ///   - green: The green component.
    ///   - blue: The blue component.
    ///   - alpha: The opacity; opaque by default.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Self.clamped(red)
        self.green = Self.clamped(green)
        self.blue = Self.clamped(blue)
        self.alpha = Self.clamped(alpha)
    }

    /// Creates a colour from a web-style hexadecimal value, `0xRRGGBB`.
    ///
    /// - Parameters:
    ///   - hex: The value; bits above the lowest 24 are ignored.
    ///   - alpha: The opacity; opaque by default.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(
            red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
            blue: Double(hex & 0xFF) / 255, alpha: alpha)
    }

    /// The same colour with another opacity.
    ///
    /// - Parameter alpha: The opacity, 0 to 1.
    /// - Returns: The colour.
    public func opacity(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// This colour mixed with another: 0 gives this one, 1 the other (a pressed tile darkened
    /// towards black, a hover lightened towards white).
    ///
    /// - Parameters:
    ///   - other: The other colour.
    ///   - fraction: How much of the other, 0 to 1.
    /// - Returns: The mix.
    public func mixed(with other: Color, by fraction: Double) -> Color {
        let amount = Self.clamped(fraction)
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * amount }
        return Color(
            red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue),
            alpha: mix(alpha, other.alpha))
    }

    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Fully transparent.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// `#RRGGBB`, with `AA` appended when not opaque.
    public var description: String {
        func byte(_ value: Double) -> Int { Int(value * 255 + 0.5) }
        let digits = Array("0123456789ABCDEF")
        func hex(_ value: Double) -> String {
            let value = byte(value)
            return String([digits[value >> 4], digits[value & 0xF]])
        }
        return "#" + hex(red) + hex(green) + hex(blue) + (byte(alpha) == 255 ? "" : hex(alpha))
    }

    private static func clamped(_ value: Double) -> Double {
        value >= 0 ? (value <= 1 ? value : 1) : 0
    }
}

/// What a shape is filled or stroked with: a colour, or a gradient.
public enum Paint: Hashable, Sendable {
    /// One colour.
    case color(Color)
    /// A linear gradient.
    case linearGradient(LinearGradient)
}

/// Colours blended along a line: from `start` (the first stop) to `end` (the last).
public struct LinearGradient: Hashable, Sendable {
    /// One colour at a place along the line.
    public struct Stop: Hashable, Sendable {
        /// Where, 0 (the start) to 1 (the end).
        public var location: Double
        /// The colour there.
        public var color: Color

        /// Creates a stop.
        ///
        /// - Parameters:
        ///   - location: Where, 0 to 1.
        ///   - color: The colour there.
        public init(_ location: Double, _ color: Color) {
            self.location = location
            self.color = color
        }
    }

    /// Where the gradient starts, in the window's coordinate space (points).
    public var start: Point
    /// Where it ends.
    public var end: Point
    /// The colours, in order of location.
    public var stops: [Stop]

    /// Creates a gradient.
    ///
    /// - Parameters:
    ///   - start: Where the first stop is.
    ///   - end: Where the last stop is.
    ///   - stops: The colours along the line.
    public init(from start: Point, to end: Point, stops: [Stop]) {
        self.start = start
        self.end = end
        self.stops = stops
    }

    /// A gradient from one colour to another, top to bottom of a rectangle.
    ///
    /// - Parameters:
    ///   - rect: The rectangle.
    ///   - top: The colour at its top edge.
    ///   - bottom: The colour at its bottom edge.
    /// - Returns: The gradient.
    public static func vertical(in rect: Rect, from top: Color, to bottom: Color) -> LinearGradient {
        LinearGradient(
            from: Point(x: rect.minX, y: rect.minY), to: Point(x: rect.minX, y: rect.maxY),
            stops: [Stop(0, top), Stop(1, bottom)])
    }
}

/// A soft shadow under what is drawn next: a tile lifted by focus, a dialog's card.
public struct Shadow: Hashable, Sendable {
    /// The shadow's colour (its alpha is how dark it gets).
    public var color: Color
    /// How far it falls, in points: right and down for positive values.
    public var offset: Point
    /// How far it spreads softly, in points.
    public var radius: Double

    /// Creates a shadow.
    ///
    /// - Parameters:
    ///   - color: The colour; black at 30 % by default.
    ///   - offset: How far it falls; 4 points down by default.
    ///   - radius: How far it spreads; 8 points by default.
    public init(color: Color = Color.black.opacity(0.3), offset: Point = Point(x: 0, y: 4), radius: Double = 8) {
        self.color = color
        self.offset = offset
        self.radius = radius < 0 ? 0 : radius
    }

    /// How far beyond a shape the shadow can reach, on each side: what a redraw of the shape must
    /// cover too.
    public var reach: (left: Double, top: Double, right: Double, bottom: Double) {
        (
            max(0, radius - offset.x), max(0, radius - offset.y), max(0, radius + offset.x),
            max(0, radius + offset.y)
        )
    }
}
