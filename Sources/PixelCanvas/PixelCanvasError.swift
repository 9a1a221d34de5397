/// Why a renderer could not be made or an image not read or written: the font, or the file, and the fix.
public struct PixelCanvasError: Error, Equatable, CustomStringConvertible {
    /// What failed; match on the named constants.
    public struct Code: Hashable, Sendable {
        /// The code's name.
        public let rawValue: String

        /// fontconfig knows no font family of the name asked for.
        public static let fontNotFound = Code(rawValue: "fontNotFound")
        /// A PNG file could not be read (missing, or not a PNG).
        public static let pngRead = Code(rawValue: "pngRead")
        /// A PNG file could not be written.
        public static let pngWrite = Code(rawValue: "pngWrite")
    }

    /// What failed.
    public let code: Code
    /// What failed and how to fix it, for a person.
    public let message: String

    /// The message.
    public var description: String { message }
}
