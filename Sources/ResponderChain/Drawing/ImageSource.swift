/// An image a view draws: a PNG or SVG file, decoded once and kept at each scale it is drawn at.
///
/// ```swift
/// let logo = ImageSource(file: "/usr/share/riverside/logo.svg")
/// context.draw(logo, in: Rect(x: 24, y: 16, width: 160, height: 48), mode: .fit)
/// ```
/// A file that is missing or cannot be decoded is drawn as an outlined box and reported once,
/// naming the file and the reason; drawing goes on.
public struct ImageSource: Hashable, Sendable, CustomStringConvertible {
    /// How the file is decoded.
    public enum Format: Hashable, Sendable {
        /// PNG: pixels, scaled to the rectangle.
        case png
        /// SVG: vectors, drawn sharp at every scale.
        case svg
    }

    /// The file's path.
    public var path: String
    /// How it is decoded.
    public var format: Format

    /// An image from a file.
    ///
    /// - Parameters:
    ///   - path: The file; absolute, or relative to the working directory.
    ///   - format: How to decode it; by default from the name's extension (`.svg` is SVG, anything
    ///     else PNG).
    public init(file path: String, format: Format? = nil) {
        self.path = path
        self.format = format ?? (path.lowercased().hasSuffix(".svg") ? .svg : .png)
    }

    /// The path.
    public var description: String { path }
}

/// How an image fills the rectangle it is drawn in.
public enum ImageContentMode: Hashable, Sendable {
    /// As large as fits whole, centred, its proportions kept (UIKit's `scaleAspectFit`).
    case fit
    /// Covering the rectangle, centred, its proportions kept, the overflow clipped
    /// (`scaleAspectFill`).
    case fill
    /// Stretched to the rectangle.
    case stretch
    /// At its own size in points, centred.
    case center
}
