import CairoGraphics
import FuzzSupport

// A file of the rendered-SVG cache, as a renderer reads it from disk: any bytes are an entry or nil,
// never a trap, and an entry is whole (a rendering's bytes are its width times its height times 4).
fuzz { data, count in
    let input = bytes(data, count)
    guard let entry = RenderedSVGCache.entry(from: input) else { return 0 }
    switch entry {
    case .size(let size):
        if let size, !(size.width.isFinite && size.height.isFinite && size.width > 0 && size.height > 0) {
            fatalError("an intrinsic size that is not finite and positive: \(size)")
        }
    case .pixels(let width, let height, let pixels):
        guard (1...RenderedSVGCache.largestSide).contains(width), (1...RenderedSVGCache.largestSide).contains(height),
            pixels.count == width * height * 4
        else { fatalError("a rendering of \(width)x\(height) with \(pixels.count) bytes") }
    }
    return 0
}
