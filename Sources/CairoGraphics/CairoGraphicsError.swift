/// Something the renderer could not draw as asked, and how to fix it: an image file that is missing
/// or cannot be decoded (drawn as a placeholder, reported once per file through
/// ``CairoRenderer/problems`` and ``CairoRenderer/onProblem``).
public struct CairoGraphicsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed; match on the named constants.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String

        init(rawValue: String) { self.rawValue = rawValue }

        /// The image file does not exist.
        public static let imageNotFound = Code(rawValue: "imageNotFound")
        /// The image file exists but cannot be read (permissions, a directory).
        public static let imageNotReadable = Code(rawValue: "imageNotReadable")
        /// The file is not a PNG or SVG the libraries can decode.
        public static let imageNotDecodable = Code(rawValue: "imageNotDecodable")
        /// The image would decode to more pixels than the renderer allows.
        public static let imageTooLarge = Code(rawValue: "imageTooLarge")

        /// The name.
        public var description: String { rawValue }
    }

    /// What failed.
    public let code: Code
    /// The file concerned, when there is one.
    public let path: String?
    /// What failed and how to fix it, for a person: `/srv/logo.png: no such file; install the image
    /// or fix the path`.
    public let message: String

    init(code: Code, path: String?, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
