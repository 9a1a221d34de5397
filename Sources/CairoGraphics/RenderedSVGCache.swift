public import ResponderChain

/// Where SVG images rendered at a device size are kept between runs, so that an app started again
/// draws its SVG icons without parsing them, or even opening librsvg: a kiosk restarted every
/// night, or by its watchdog, starts sooner and holds some 8 MB less (librsvg and the libxml2 and
/// ICU behind it are never mapped). Qt keeps its compiled shaders and Mesa its shader binaries in
/// `~/.cache` for the same reason.
///
/// The platforms give their renderer ``standard(environment:)``; a ``CairoRenderer`` made by hand
/// keeps nothing on disk until its ``CairoRenderer/svgCache`` is set.
///
/// Each document is known by its bytes (a 64-bit FNV-1a hash and the length): a changed SVG is
/// rendered anew, and the old entries are left (at most ``entryLimit`` files are written, then
/// nothing more). Two kinds of file: `<document>.size` holds its intrinsic size (what layout asks
/// first), `<document>-<width>x<height>.pixels` its premultiplied ARGB32 pixels at that size, byte
/// for byte what Cairo and librsvg drew (so a frame drawn from the cache is the frame drawn
/// without it). Each file ends in a checksum of the rest; a file that is short, long, changed or of
/// another format is ignored and written again. Files are written under a temporary name and
/// renamed, so a reader never sees half of one. After an upgrade of librsvg that changes how a
/// document is drawn, empty the directory.
public struct RenderedSVGCache: Hashable, Sendable {
    /// The directory the files are in; made (mode 0700) when the first file is written.
    public let directory: String

    /// The most files written into the directory by one process's renderers' view of it: when the
    /// directory holds this many, nothing more is written (the renderer draws as without a cache).
    public static let entryLimit = 1024
    /// The largest side, in device pixels, of a rendering kept: a larger one is drawn each run.
    public static let largestSide = 1024

    /// A cache in a directory.
    ///
    /// - Parameter directory: An absolute path; it need not exist yet.
    public init(directory: String) {
        self.directory = directory
    }

    /// An app's cache: `$RESPONDERCHAIN_SVG_CACHE` when it names a directory, else
    /// `$XDG_CACHE_HOME/responderchain/svg`, else `$HOME/.cache/responderchain/svg`; `nil` (no cache)
    /// when `RESPONDERCHAIN_SVG_CACHE` is `off` or `0`, or when none of them is an absolute path.
    ///
    /// - Parameter environment: The process's environment.
    /// - Returns: The cache, or `nil`.
    public static func standard(environment: [String: String]) -> RenderedSVGCache? {
        if let chosen = environment["RESPONDERCHAIN_SVG_CACHE"], !chosen.isEmpty {
            if chosen == "off" || chosen == "0" { return nil }
            return chosen.hasPrefix("/") ? RenderedSVGCache(directory: chosen) : nil
        }
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
            return RenderedSVGCache(directory: base + "/responderchain/svg")
        }
        if let home = environment["HOME"], home.hasPrefix("/"), home != "/" {
            return RenderedSVGCache(directory: home + "/.cache/responderchain/svg")
        }
        return nil
    }

    /// What one file of the cache holds.
    public enum Entry: Hashable, Sendable {
        /// A document's intrinsic size in CSS pixels; `nil` when it gives none (a viewBox alone).
        case size(Size?)
        /// A rendering: premultiplied ARGB32 in native byte order, `width * 4` bytes a row.
        case pixels(width: Int, height: Int, bytes: [UInt8])
    }

    /// Reads one file's bytes: the entry, or `nil` for anything that is not a whole, unchanged entry of
    /// this format (another magic or version, a size out of range, a length that does not match, a
    /// checksum that does not). Never traps, whatever the bytes.
    ///
    /// - Parameter bytes: The file's contents.
    /// - Returns: The entry, or `nil`.
    public static func entry(from bytes: [UInt8]) -> Entry? {
        guard bytes.count >= headerLength + 8, Array(bytes.prefix(8)) == magic else { return nil }
        let kind = word32(bytes, at: 8)
        let width = Int(word32(bytes, at: 12))
        let height = Int(word32(bytes, at: 16))
        guard word32(bytes, at: 20) == 0 else { return nil }
        let payload: Int
        switch kind {
        case 1:
            guard width == 0, height == 0 else { return nil }
            payload = 16
        case 2:
            guard (1...largestSide).contains(width), (1...largestSide).contains(height) else { return nil }
            payload = width * height * 4
        default:
            return nil
        }
        guard bytes.count == headerLength + payload + 8 else { return nil }
        guard checksum(bytes[..<(headerLength + payload)]) == word64(bytes, at: headerLength + payload) else {
            return nil
        }
        if kind == 1 {
            let sizeWidth = Double(bitPattern: word64(bytes, at: headerLength))
            let sizeHeight = Double(bitPattern: word64(bytes, at: headerLength + 8))
            if sizeWidth == 0 && sizeHeight == 0 { return .size(nil) }
            guard sizeWidth.isFinite, sizeHeight.isFinite, sizeWidth > 0, sizeHeight > 0 else { return nil }
            return .size(Size(width: sizeWidth, height: sizeHeight))
        }
        return .pixels(width: width, height: height, bytes: Array(bytes[headerLength..<(headerLength + payload)]))
    }

    /// A file's bytes for an entry (``entry(from:)`` reads them back).
    static func encode(_ entry: Entry) -> [UInt8] {
        var bytes = magic
        switch entry {
        case .size(let size):
            append32(1, to: &bytes)
            append32(0, to: &bytes)
            append32(0, to: &bytes)
            append32(0, to: &bytes)
            append64((size?.width ?? 0).bitPattern, to: &bytes)
            append64((size?.height ?? 0).bitPattern, to: &bytes)
        case .pixels(let width, let height, let pixels):
            append32(2, to: &bytes)
            append32(UInt32(clamping: width), to: &bytes)
            append32(UInt32(clamping: height), to: &bytes)
            append32(0, to: &bytes)
            bytes += pixels
        }
        append64(checksum(bytes[...]), to: &bytes)
        return bytes
    }

    // MARK: - The format

    /// `RCSVG`, two zero bytes and the format's version.
    static let magic: [UInt8] = [0x52, 0x43, 0x53, 0x56, 0x47, 0, 0, 1]
    /// Magic, kind, width, height and a reserved zero.
    static let headerLength = 24

    /// A document's name in the cache: its bytes' FNV-1a hash and their count.
    static func documentName(_ bytes: [UInt8]) -> String {
        let hash = checksum(bytes[...])
        return String(hash, radix: 16) + "-" + String(bytes.count)
    }

    /// FNV-1a, 64 bits.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func word32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * index) }
        return value
    }

    private static func word64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * index) }
        return value
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    private static func append64(_ value: UInt64, to bytes: inout [UInt8]) {
        for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
}
