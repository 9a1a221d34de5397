/// An opaque colour, 8 bits a channel.
public struct PixelColor: Hashable, Sendable {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// Creates a colour.
    ///
    /// - Parameters:
    ///   - red: Red, 0–255.
    ///   - green: Green, 0–255.
    ///   - blue: Blue, 0–255.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The colour as one ARGB8888 pixel, alpha 255: `0xAARRGGBB`, which a little-endian machine stores as
    /// the bytes B, G, R, A.
    public var argb: UInt32 {
        0xFF00_0000 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    /// The colour halfway to another: faint text is its colour halfway to the background.
    ///
    /// - Parameter other: The other colour.
    /// - Returns: The mean of the two, channel by channel.
    public func halfway(to other: PixelColor) -> PixelColor {
        PixelColor(
            red: UInt8((UInt16(red) + UInt16(other.red)) / 2), green: UInt8((UInt16(green) + UInt16(other.green)) / 2),
            blue: UInt8((UInt16(blue) + UInt16(other.blue)) / 2))
    }
}
