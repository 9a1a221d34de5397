internal import CCairoGraphics
internal import ResponderChain

/// An image file decoded once: a PNG's pixels, or an SVG document (parsed by librsvg when first
/// rendered at a size the disk cache does not hold).
final class DecodedImage {
    enum Content {
        case bitmap(CairoSurface)
        case vector(SVGDocument)
    }

    let content: Content
    /// Its own size in points: a PNG's pixels, an SVG's width and height in CSS pixels; `nil` for an
    /// SVG that gives none (a viewBox alone).
    let size: Size?

    init(_ content: Content, size: Size?) {
        self.content = content
        self.size = size
    }

    /// A rough count of the bytes it holds, for the cache's bound.
    var cost: Int {
        switch content {
        case .bitmap(let surface): return surface.byteCount
        case .vector: return 64 << 10
        }
    }
}

/// The images: each file decoded once, and kept at each device size it is drawn at (scaled once with
/// Cairo's good filter, an SVG rendered sharp at that size), so that drawing it again is a copy of
/// pixels. One bounded cache holds both, and the files that failed (so that a missing file is looked
/// at once, not every frame).
final class ImageStore {
    private enum Key: Hashable {
        case decoded(ImageSource)
        case scaled(ImageSource, width: Int, height: Int)
    }

    private enum Entry {
        case decoded(DecodedImage)
        case scaled(CairoSurface)
        case failed
    }

    /// The largest side kept at a device size; larger is drawn straight from the decoded image.
    static let largestCachedSide = 8192

    private var cache: LRUCache<Key, Entry>
    /// Called when a file fails (each time it is decoded again after the cache let it go; the
    /// renderer reports each path once).
    var onFailure: (CairoGraphicsError) -> Void = { _ in }
    /// How many files were decoded and how many device sizes made, for tests and benchmarks.
    private(set) var decodes = 0
    private(set) var scalings = 0
    /// How many SVG documents librsvg parsed (each once; none while the disk cache held every size drawn).
    private(set) var svgParses = 0
    /// The renderings kept on disk between runs, when the renderer has a cache.
    var disk: SVGDiskCache?

    init(byteLimit: Int) {
        cache = LRUCache(costLimit: byteLimit)
    }

    /// How many entries are kept, and their bytes.
    var count: Int { cache.count }
    var bytes: Int { cache.totalCost }

    func removeAll() { cache.removeAll() }

    /// The decoded image, or `nil` when the file cannot be decoded (reported through ``onFailure``).
    func decoded(_ image: ImageSource) -> DecodedImage? {
        switch cache.value(for: .decoded(image)) {
        case .decoded(let decoded): return decoded
        case .failed: return nil
        case .scaled, nil: break
        }
        decodes += 1
        switch decode(image) {
        case .success(let decoded):
            cache.insert(.decoded(decoded), for: .decoded(image), cost: decoded.cost)
            return decoded
        case .failure(let error):
            cache.insert(.failed, for: .decoded(image), cost: 256)
            onFailure(error)
            return nil
        }
    }

    /// The image at a device size: made once and kept while the cache allows; `nil` when it cannot be
    /// made (too large for Cairo, or librsvg failed, which is reported).
    func scaled(_ image: ImageSource, _ decoded: DecodedImage, width: Int, height: Int) -> CairoSurface? {
        if case .bitmap(let surface) = decoded.content, surface.width == width, surface.height == height {
            return surface
        }
        let key = Key.scaled(image, width: width, height: height)
        if case .scaled(let surface) = cache.value(for: key) { return surface }
        guard let surface = CairoSurface(format: CAIRO_FORMAT_ARGB32, width: width, height: height) else { return nil }
        scalings += 1
        if case .vector(let document) = decoded.content, let disk,
            let pixels = disk.pixels(of: document.name, width: width, height: height), surface.load(pixels)
        {
            // Drawn by an earlier run: byte for byte what librsvg would draw now.
            cache.insert(.scaled(surface), for: key, cost: surface.byteCount)
            return surface
        }
        var failure: String?
        surface.draw { cairo in
            failure = Self.draw(decoded, on: cairo, width: Double(width), height: Double(height))
        }
        if let failure {
            failImage(image, message: failure)
            return nil
        }
        if case .vector(let document) = decoded.content, let disk, let pixels = surface.pixelBytes() {
            disk.store(pixels: pixels, width: width, height: height, of: document.name)
        }
        cache.insert(.scaled(surface), for: key, cost: surface.byteCount)
        return surface
    }

    /// Draws the decoded image into a rectangle of user space at the origin, `width` by `height`
    /// (scaled from the PNG's pixels with Cairo's good filter, the SVG rendered by librsvg); what failed
    /// when librsvg fails.
    ///
    /// Uses `cairo_set_source_surface` and `cairo_paint`, or `rsvg_handle_render_document`.
    static func draw(_ decoded: DecodedImage, on cairo: OpaquePointer, width: Double, height: Double) -> String? {
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        switch decoded.content {
        case .bitmap(let surface):
            cairo_rectangle(cairo, 0, 0, width, height)
            cairo_clip(cairo)
            cairo_scale(cairo, width / Double(surface.width), height / Double(surface.height))
            cairo_set_source_surface(cairo, surface.pointer, 0, 0)
            let pattern = cairo_get_source(cairo)
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            cairo_paint(cairo)
            return nil
        case .vector(let document):
            let rsvg: Rsvg
            let handle: GObjectReference
            switch document.parsed() {
            case .success(let parsed): (rsvg, handle) = parsed
            case .failure(let error): return error.message
            }
            var viewport = RsvgRectangle(x: 0, y: 0, width: width, height: height)
            if let size = decoded.size {
                // Stretched to the rectangle (the content mode chose its proportions).
                cairo_scale(cairo, width / size.width, height / size.height)
                viewport = RsvgRectangle(x: 0, y: 0, width: size.width, height: size.height)
            }
            var error: OpaquePointer?
            guard rsvg.renderDocument(handle.pointer, cairo, &viewport, &error) != 0 else {
                defer { if let error { g_error_free(error) } }
                return error.flatMap { ccairographics_error_message($0) }.map { String(cString: $0) } ?? "failed"
            }
            return nil
        }
    }

    private func failImage(_ image: ImageSource, message: String) {
        cache.insert(.failed, for: .decoded(image), cost: 256)
        onFailure(
            CairoGraphicsError(
                code: .imageNotDecodable, path: image.path,
                message: "\(image): librsvg cannot draw it (\(message)); fix or re-export the SVG"))
    }

    /// Uses `cairo_image_surface_create_from_png`, or `rsvg_handle_new_from_file` and
    /// `rsvg_handle_get_intrinsic_size_in_pixels`; for an image held in memory, ``decode(_:bytes:)``.
    private func decode(_ image: ImageSource) -> Result<DecodedImage, CairoGraphicsError> {
        if let bytes = image.data { return decode(image, bytes: bytes) }
        let path = image.path
        if let problem = ImageFiles.problem(path) { return .failure(problem) }
        switch image.format {
        case .png:
            if let problem = ImageFiles.pngProblem(path) { return .failure(problem) }
            let made = cairo_image_surface_create_from_png(path)
            let status = made.map { cairo_surface_status($0) } ?? CAIRO_STATUS_NO_MEMORY
            guard let surface = CairoSurface(adopting: made) else {
                let reason = String(cString: cairo_status_to_string(status))
                return .failure(
                    CairoGraphicsError(
                        code: .imageNotDecodable, path: path,
                        message: "\(path): a damaged PNG (cairo: \(reason)); export it again"))
            }
            return .success(
                DecodedImage(.bitmap(surface), size: Size(width: Double(surface.width), height: Double(surface.height)))
            )
        case .svg:
            switch ImageFiles.contents(path) {
            case .success(let bytes): return svg(image, bytes: bytes, path: path)
            case .failure(let problem): return .failure(problem)
            }
        }
    }

    /// An image held in memory: its bytes checked as a file's are, then a PNG read through cairo's
    /// stream reader, an SVG parsed by librsvg from the bytes.
    ///
    /// Uses `cairo_image_surface_create_from_png_stream`, or `rsvg_handle_new_from_data`.
    private func decode(_ image: ImageSource, bytes: [UInt8]) -> Result<DecodedImage, CairoGraphicsError> {
        if let problem = ImageFiles.problem(inMemory: image, bytes: bytes) { return .failure(problem) }
        switch image.format {
        case .png:
            var reader = ByteReader(bytes: bytes)
            let made = withUnsafeMutablePointer(to: &reader) { pointer in
                // Cairo calls the reader only during this call, so the pointer outlives its use.
                cairo_image_surface_create_from_png_stream(
                    { closure, data, length in
                        guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                        let reader = closure.assumingMemoryBound(to: ByteReader.self)
                        return reader.pointee.read(into: data, count: Int(length))
                            ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
                    }, pointer)
            }
            let status = made.map { cairo_surface_status($0) } ?? CAIRO_STATUS_NO_MEMORY
            guard let surface = CairoSurface(adopting: made) else {
                let reason = String(cString: cairo_status_to_string(status))
                return .failure(
                    CairoGraphicsError(
                        code: .imageNotDecodable, path: image.path,
                        message: "\(image): a damaged PNG (cairo: \(reason)); encode it again"))
            }
            return .success(
                DecodedImage(.bitmap(surface), size: Size(width: Double(surface.width), height: Double(surface.height)))
            )
        case .svg:
            return svg(image, bytes: bytes, path: nil)
        }
    }

    /// An SVG document: its own size from the disk cache when an earlier run kept it (nothing parsed),
    /// else from librsvg, which parses it now (and the size is kept for the next run).
    private func svg(_ image: ImageSource, bytes: [UInt8], path: String?) -> Result<DecodedImage, CairoGraphicsError> {
        let document = SVGDocument(source: image, bytes: bytes, path: path) { [unowned self] in svgParses += 1 }
        if let disk, let size = disk.size(of: document.name) {
            return .success(DecodedImage(.vector(document), size: size))
        }
        switch document.parsed() {
        case .failure(let error):
            return .failure(error)
        case .success(let (rsvg, handle)):
            let size = Self.intrinsicSize(rsvg, handle.pointer)
            disk?.store(size: size, of: document.name)
            return .success(DecodedImage(.vector(document), size: size))
        }
    }

    /// An SVG document's own size, when it gives one.
    ///
    /// Uses `rsvg_handle_get_intrinsic_size_in_pixels`.
    private static func intrinsicSize(_ rsvg: Rsvg, _ handle: OpaquePointer) -> Size? {
        var width = 0.0
        var height = 0.0
        let sized = rsvg.intrinsicSizeInPixels(handle, &width, &height) != 0
        return sized && width > 0 && height > 0 && width.isFinite && height.isFinite
            ? Size(width: width, height: height) : nil
    }
}

/// An SVG document, known in the disk cache by its bytes, and parsed by librsvg (opened then) only
/// when it is first rendered at a size the cache does not hold.
final class SVGDocument {
    /// Its name in the disk cache (``RenderedSVGCache``): its bytes' hash and count.
    let name: String
    private let source: ImageSource
    /// The bytes of a document held in memory; a file is parsed from its path (its relative
    /// references resolve against it).
    private let bytes: [UInt8]?
    private let path: String?
    private let onParse: () -> Void
    private var state: Result<(Rsvg, GObjectReference), CairoGraphicsError>?

    init(source: ImageSource, bytes: [UInt8], path: String?, onParse: @escaping () -> Void) {
        self.source = source
        name = RenderedSVGCache.documentName(bytes)
        self.bytes = path == nil ? bytes : nil
        self.path = path
        self.onParse = onParse
    }

    /// librsvg and the parsed document, parsed once; why not (librsvg missing, or the bytes not an
    /// SVG it reads).
    ///
    /// Uses `rsvg_handle_new_from_file` or `rsvg_handle_new_from_data`.
    func parsed() -> Result<(Rsvg, GObjectReference), CairoGraphicsError> {
        if let state { return state }
        let result: Result<(Rsvg, GObjectReference), CairoGraphicsError>
        switch Rsvg.shared {
        case .failure(let unavailable):
            result = .failure(
                CairoGraphicsError(
                    code: .imageNotDecodable, path: source.path, message: "\(source): \(unavailable.message)"))
        case .success(let rsvg):
            onParse()
            var error: OpaquePointer?
            let made: OpaquePointer?
            if let path {
                made = rsvg.newFromFile(path, &error)
            } else {
                made = (bytes ?? []).withUnsafeBufferPointer {
                    rsvg.newFromData($0.baseAddress, gsize($0.count), &error)
                }
            }
            if let made {
                result = .success((rsvg, GObjectReference(made)))
            } else {
                defer { if let error { g_error_free(error) } }
                let reason = error.flatMap { ccairographics_error_message($0) }.map { String(cString: $0) } ?? "unknown"
                let message =
                    path.map { "\($0): not an SVG librsvg can read (\(reason)); fix or re-export the file" }
                    ?? "\(source): not an SVG librsvg can read (\(reason)); fix the document"
                result = .failure(CairoGraphicsError(code: .imageNotDecodable, path: source.path, message: message))
            }
        }
        state = result
        return result
    }
}

/// Hands a PNG held in memory to cairo's stream reader, a piece at a time.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    /// Copies the next `count` bytes; `false` when fewer are left (a truncated PNG).
    mutating func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        guard count >= 0, count <= bytes.count - offset else { return false }
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { destination.update(from: base + offset, count: count) }
        }
        offset += count
        return true
    }
}
