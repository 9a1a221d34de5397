/// An image a view draws: a PNG or SVG file, or one held in memory (an icon compiled into the app),
/// decoded once and kept at each scale it is drawn at.
///
/// ```swift
/// let logo = ImageSource(file: "/usr/share/riverside/logo.svg")
/// context.draw(logo, in: Rect(x: 24, y: 16, width: 160, height: 48), mode: .fit)
///
/// let help = ImageSource(svg: #"<svg xmlns="http://www.w3.org/2000/svg" …>…</svg>"#, name: "help-icon")
/// ```
/// An image that is missing or cannot be decoded is drawn as an outlined box and reported once,
/// naming the file (or the in-memory image's name) and the reason; drawing goes on.
///
/// Two sources are equal when they name the same file, or hold the same bytes under the same name.
public struct ImageSource: Hashable, Sendable, CustomStringConvertible {
    /// How the image is decoded.
    public enum Format: Hashable, Sendable {
        /// PNG: pixels, scaled to the rectangle.
        case png
        /// SVG: vectors, drawn sharp at every scale.
        case svg
    }

    /// The file's path; for an image held in memory, its name (what reports call it).
    public var path: String
    /// How it is decoded.
    public var format: Format
    /// The encoded bytes of an image held in memory; `nil` for a file.
    public var data: [UInt8]? { content?.bytes }
    /// The bytes, with a digest computed once so that hashing a source (every draw looks it up in a
    /// cache) does not read them all.
    private var content: Content?

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

    /// An image held in memory: encoded bytes compiled into the app or made at run time, for an app
    /// installed without image files beside it.
    ///
    /// - Parameters:
    ///   - data: The encoded image (a PNG file's bytes, an SVG document's UTF-8).
    ///   - format: How to decode it.
    ///   - name: What reports call it (`logo.svg`); with the bytes, what tells it from other images.
    public init(data: [UInt8], format: Format, name: String) {
        self.path = name
        self.format = format
        self.content = Content(data)
    }

    /// An SVG document held in memory.
    ///
    /// - Parameters:
    ///   - svg: The document's text.
    ///   - name: What reports call it.
    public init(svg: String, name: String) {
        self.init(data: Array(svg.utf8), format: .svg, name: name)
    }

    /// A PNG image held in memory.
    ///
    /// - Parameters:
    ///   - png: The PNG file's bytes.
    ///   - name: What reports call it.
    public init(png: [UInt8], name: String) {
        self.init(data: png, format: .png, name: name)
    }

    /// Whether the image is held in memory rather than read from a file.
    public var isInMemory: Bool { content != nil }

    /// The path, or the in-memory image's name followed by `(in memory)`.
    public var description: String { content == nil ? path : "\(path) (in memory)" }

    /// Whether two sources are the same image.
    public static func == (lhs: ImageSource, rhs: ImageSource) -> Bool {
        lhs.path == rhs.path && lhs.format == rhs.format && lhs.content == rhs.content
    }

    /// Hashes the path, the format and the bytes' digest.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(format)
        hasher.combine(content?.digest)
    }

    /// Immutable bytes and their 64-bit FNV-1a digest.
    private final class Content: Equatable, Sendable {
        let bytes: [UInt8]
        let digest: UInt64

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            digest = hash
        }

        static func == (lhs: Content, rhs: Content) -> Bool {
            lhs === rhs || (lhs.digest == rhs.digest && lhs.bytes == rhs.bytes)
        }
    }
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
