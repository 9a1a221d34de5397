import CairoGraphics
import EventLoop
import Foundation
import Graphics
import ResponderChain
import Testing

@testable import DRMOutput

/// Why `DRMNodeOutput` draws into a frame in memory and copies rectangles, rather than drawing each
/// buffer's missed damage straight into it: both measured on the same kiosk screen, focus moving
/// along twelve tiles. Off by default (a measurement, not a check); run it with
/// `DRM_MEASURE_DESIGNS=1 swift test --filter DamageDesignMeasurement` and read the figures it prints
/// (docs/performance.md quotes them).
@MainActor
@Suite("Damage design measurement", .enabled(if: ProcessInfo.processInfo.environment["DRM_MEASURE_DESIGNS"] == "1"))
struct DamageDesignMeasurement {
    /// A title and twelve tiles, 4 by 3, on a 1280x800-point screen.
    static func screen(lift: Bool) -> (Window, FocusSystem, [ButtonNode]) {
        let window = Window(identifier: "kiosk")
        window.backgroundColor = Theme.standard.background
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 1280, height: 800))
        root.focusGroupIdentifier = "tiles"
        window.addChild(root)
        root.addChild(
            LabelNode(
                "Riverside Clinic", style: TextStyle(font: Font(size: 44, weight: .bold), color: Theme.standard.text),
                identifier: "title", frame: Rect(x: 64, y: 40, width: 1152, height: 64)))
        let tiles = (0..<12).map { index in
            let tile = ButtonNode(
                "Service \(index + 1)", subtitle: "Tap or press Return", look: .tile, identifier: "tile\(index)",
                frame: Rect(
                    x: 64 + Double(index % 4) * 292, y: 150 + Double(index / 4) * 210, width: 268, height: 186))
            if lift { tile.focusEffect = .lift() }
            return tile
        }
        for tile in tiles { root.addChild(tile) }
        let (_, focusSystem) = window.makeDispatcher(focusRoot: root, layout: USKeyboardLayout())
        focusSystem.updateFocusIfNeeded()
        return (window, focusSystem, tiles)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    static let frames = 240

    /// The design kept: damage drawn once into the shadow, rectangles copied into the back buffer.
    func shadowAndCopy(scale: Double, lift: Bool) throws -> Figures {
        let (window, focusSystem, tiles) = Self.screen(lift: lift)
        let scanout = MemoryScanout(width: Int(1280 * scale), height: Int(800 * scale))
        var display = DisplayOptions()
        display.followsHotPlug = false
        let loop = try EventLoop()
        let output = try DRMNodeOutput(
            loop: loop, window: window, renderer: CairoRenderer(), device: scanout,
            chosen: DisplayCore.choose(on: scanout, options: display), seat: nil,
            options: DRMNodeOutput.Options(display: display, scale: scale))
        var copied: [Int] = []
        output.onPresented = { copied.append($0.pixelsCopied) }
        output.update()
        var times: [Double] = []
        var second = 0.0
        for frame in 0..<Self.frames + 2 {
            focusSystem.setNeedsFocusUpdate(on: tiles[(frame + 1) % tiles.count])
            focusSystem.updateFocusIfNeeded()
            let start = DispatchTime.now().uptimeNanoseconds
            output.update()
            let end = DispatchTime.now().uptimeNanoseconds
            scanout.completeFlip()
            output.core.readEvents()
            // The first frame after the mode set fills the second buffer; the next warms the caches.
            if frame == 0 { second = Double(end - start) / 1000 }
            if frame >= 2 { times.append(Double(end - start) / 1000) }
        }
        let pixels = copied.sorted()[copied.count / 2]
        var moves: [Double] = []
        for step in 0..<Self.frames {
            let start = DispatchTime.now().uptimeNanoseconds
            output.movePointer(toX: Double(100 + step * 3) * scale, y: Double(300 + step) * scale)
            let end = DispatchTime.now().uptimeNanoseconds
            scanout.completeFlip()
            output.core.readEvents()
            moves.append(Double(end - start) / 1000)
        }
        return Figures(
            focusMove: Self.median(times), focusMoveMean: times.reduce(0, +) / Double(times.count), pixels: pixels,
            secondBuffer: second, pointerMove: Self.median(moves))
    }

    struct Figures {
        var focusMove: Double
        var focusMoveMean: Double
        var pixels: Int
        var secondBuffer: Double
        var pointerMove: Double
    }

    /// The design not taken: no shadow; each buffer redraws this frame's damage and what it missed.
    func redrawIntoBuffers(scale: Double, lift: Bool) -> Figures {
        let (window, focusSystem, tiles) = Self.screen(lift: lift)
        let (width, height) = (Int(1280 * scale), Int(800 * scale))
        let pitch = width * 4 + 64
        let buffers = (0..<2).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: pitch * height, alignment: 16)
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        let painter = WindowPainter(window: window, size: Size(width: 1280, height: 800))
        let renderer = CairoRenderer()
        var missed = [DamageRegion(), DamageRegion()]
        for index in 0..<2 { missed[index].add(painter.bounds) }
        var back = 0
        var drawn: [Int] = []
        var pointer: (x: Int, y: Int)?
        /// Draws this frame's damage (and the pointer's old and new places) with what the back buffer
        /// missed, then the pointer over it.
        func frame(pointerTo next: (x: Int, y: Int)? = nil) {
            var damage = painter.takeDamage()
            for place in [pointer, next].compactMap({ $0 }) where next != nil {
                damage.add(
                    Rect(
                        x: Double(place.x) / scale, y: Double(place.y) / scale,
                        width: Double(PointerSprite.width) / scale, height: Double(PointerSprite.height) / scale))
            }
            if next != nil { pointer = next }
            guard !damage.isEmpty else { return }
            var region = missed[back]
            for rect in damage.rects { region.add(rect) }
            region.clip(to: painter.bounds)
            renderer.render(
                into: buffers[back], width: width, height: height, stride: pitch, format: .xrgb8888, scale: scale,
                damage: region.rects
            ) { context in painter.paint(region, in: context) }
            if let pointer, let base = buffers[back].baseAddress {
                for row in pointer.y..<min(height, pointer.y + PointerSprite.height) {
                    PointerSprite.draw(row: row, x: pointer.x, y: pointer.y, into: base + row * pitch, width: width)
                }
            }
            drawn.append(region.rects.reduce(0) { $0 + DisplayRect(enclosing: $1, scale: scale).area })
            missed[back] = DamageRegion()
            for rect in damage.rects { missed[1 - back].add(rect) }
            back = 1 - back
        }
        frame()
        var times: [Double] = []
        var second = 0.0
        for step in 0..<Self.frames + 2 {
            focusSystem.setNeedsFocusUpdate(on: tiles[(step + 1) % tiles.count])
            focusSystem.updateFocusIfNeeded()
            let start = DispatchTime.now().uptimeNanoseconds
            frame()
            let end = DispatchTime.now().uptimeNanoseconds
            if step == 0 { second = Double(end - start) / 1000 }
            if step >= 2 { times.append(Double(end - start) / 1000) }
        }
        let pixels = drawn.sorted()[drawn.count / 2]
        var moves: [Double] = []
        for step in 0..<Self.frames {
            let start = DispatchTime.now().uptimeNanoseconds
            frame(pointerTo: (Int(Double(100 + step * 3) * scale), Int(Double(300 + step) * scale)))
            let end = DispatchTime.now().uptimeNanoseconds
            moves.append(Double(end - start) / 1000)
        }
        return Figures(
            focusMove: Self.median(times), focusMoveMean: times.reduce(0, +) / Double(times.count), pixels: pixels,
            secondBuffer: second, pointerMove: Self.median(moves))
    }

    @Test("a focus move's frame: drawn once into memory and copied, against redrawn into each buffer")
    func measure() throws {
        for lift in [false, true] {
            for scale in [1.0, 2.0] {
                let kept = try shadowAndCopy(scale: scale, lift: lift)
                let other = redrawIntoBuffers(scale: scale, lift: lift)
                let effect = lift ? "lift" : "ring"
                for (name, figures) in [("shadow+copy", kept), ("redraw-into-buffer", other)] {
                    print(
                        "measure \(effect) scale \(scale) \(name): focus move median \(Int(figures.focusMove)) µs"
                            + " mean \(Int(figures.focusMoveMean)) µs (\(figures.pixels) px);"
                            + " second buffer's first frame \(Int(figures.secondBuffer)) µs;"
                            + " pointer move median \(Int(figures.pointerMove)) µs")
                }
            }
        }
    }
}
