import CCairoGraphics
import Testing

@testable import CairoGraphics

@Suite struct ShadowBlurTests {
    /// The blur as first written: three box passes along each row, then three down each column, each
    /// column walked alone.
    static func reference(_ values: [UInt8], width: Int, height: Int, sigma: Double) -> [UInt8] {
        var pixels = values
        func pass(start: Int, step: Int, count: Int, radius: Int) {
            guard radius > 0 else { return }
            let line = (0..<count).map { Int(pixels[start + $0 * step]) }
            let box = 2 * radius + 1
            for index in 0..<count {
                let window = line[max(0, index - radius)...min(count - 1, index + radius)]
                pixels[start + index * step] = UInt8((window.reduce(0, +) + box / 2) / box)
            }
        }
        let boxes = ShadowBlur.boxes(sigma: sigma)
        for box in boxes {
            for y in 0..<height { pass(start: y * width, step: 1, count: width, radius: (box - 1) / 2) }
        }
        for box in boxes {
            for x in 0..<width { pass(start: x, step: width, count: height, radius: (box - 1) / 2) }
        }
        return pixels
    }

    @Test(
        "the blur reads the columns a row at a time: the same pixels as each column walked alone",
        arguments: [(37, 23, 3.0), (300, 5, 12.0), (5, 300, 12.0), (64, 64, 0.6), (90, 70, 40.0)])
    func sameAsColumnByColumn(width: Int, height: Int, sigma: Double) throws {
        let surface = try #require(CairoSurface(format: CAIRO_FORMAT_A8, width: width, height: height))
        var generator = SystemRandomNumberGenerator()
        var values = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for index in values.indices where index % 7 == 0 { values[index] = 0 }  // edges between 0 and more
        let data = try #require(cairo_image_surface_get_data(surface.pointer))
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        for y in 0..<height {
            for x in 0..<width { data[y * stride + x] = values[y * width + x] }
        }
        cairo_surface_mark_dirty(surface.pointer)
        ShadowBlur.blur(surface, sigma: sigma)
        cairo_surface_flush(surface.pointer)
        var blurred: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { blurred.append(data[y * stride + x]) }
        }
        #expect(blurred == Self.reference(values, width: width, height: height, sigma: sigma))
    }

    @Test("a box's rounded mean by multiplication: the division's result for every sum it can have")
    func divider() {
        for width in Array(1...70) + [127, 255, 511, 1023, 1025, 2047, 2048, 2049, 4001] {
            let divide = ShadowBlur.Divider(width: width)
            for sum in 0...(255 * width) where divide(sum) != UInt8((sum + width / 2) / width) {
                Issue.record("width \(width), sum \(sum): \(divide(sum))")
                return
            }
        }
    }
}
