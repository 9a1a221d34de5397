import EventLoop
import Foundation
import Graphics
import TestSupport
import Testing
import WaylandClient

@Suite("WaylandWindow against sway headless", .serialized)
@MainActor
struct WaylandWindowTests {
    static let red: UInt32 = 0xFF_FF_00_00
    static let blue: UInt32 = 0xFF_00_00_FF

    @Test(
        "a full-screen window is configured 800x600 at once (sway's first configure of 0x0: its output's size) and a committed red buffer shows in grim's screenshot"
    )
    func redBufferShows() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let window = try WaylandWindow(
            connection: connection, options: .init(title: "Red", appID: "rc.red", defaultWidth: 320, defaultHeight: 200)
        )
        var configures: [[Int]] = []
        window.onConfigure = { configures.append([$0, $1]) }
        var drawn: [[Int]] = []
        var fullRedraws: [Bool] = []
        let drawRed = { (buffer: PixelBuffer) -> [PixelRect] in
            drawn.append([buffer.width, buffer.height, buffer.stride])
            fullRedraws.append(buffer.needsFullRedraw)
            buffer.fill(rows: 0..<buffer.height, color: Self.red)
            return [buffer.bounds]
        }
        window.onResize = { [unowned window] _, _ in window.present(draw: drawRed) }
        #expect(run(loop, upTo: 5) { window.isConfigured })
        // sway's first configure (0x0) leaves the size to the app: a full-screen window takes its output's, not
        // its default, so its first frame is the one shown.
        #expect(configures.first == [800, 600])
        #expect(drawn == [[800, 600, 3200]])
        // Mapped by that commit, the window is made full screen at the size it has: acked and committed as it is,
        // not drawn again.
        #expect(run(loop, upTo: 5) { configures.count >= 2 && window.framesDone >= 1 })
        #expect(configures.last == [800, 600])
        #expect(drawn == [[800, 600, 3200]])
        #expect(fullRedraws == [true])
        #expect(run(loop, upTo: 5) { window.framesDone == window.framesCommitted })
        let shot = try sway.screenshot()
        #expect(shot.width == 800 && shot.height == 600)
        #expect(shot.pixel(400, 300) == [255, 0, 0])
        #expect(shot.pixel(0, 0) == [255, 0, 0])
        #expect(shot.pixel(799, 599) == [255, 0, 0])
    }

    @Test(
        "on an output of 1600x1200 at scale 2 the first frame is already 800x600 points at scale 2 (1600x1200 pixels): sway says enter only after it shows, so the window takes the one output's scale and size"
    )
    func firstFrameAtOutputScale() throws {
        let sway = try SwayHeadless(resolution: "1600x1200", scale: 2)
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let window = try WaylandWindow(
            connection: connection,
            options: .init(title: "Sharp", appID: "rc.sharp", defaultWidth: 320, defaultHeight: 200))
        #expect(window.scale == 2, "the output's scale before the surface is on it")
        var drawn: [[Int]] = []
        var scales: [Int] = []
        window.onScaleChange = { scales.append($0) }
        let drawRed = { (buffer: PixelBuffer) -> [PixelRect] in
            drawn.append([buffer.width, buffer.height, buffer.scale])
            buffer.fill(rows: 0..<buffer.height, color: Self.red)
            return [buffer.bounds]
        }
        window.onResize = { _, _ in window.present(draw: drawRed) }
        #expect(run(loop, upTo: 5) { window.isConfigured && window.framesDone >= 1 && window.enteredOutputCount == 1 })
        _ = run(loop, upTo: 0.3) { false }
        #expect(drawn == [[1600, 1200, 2]], "one frame, at the size and scale it shows at")
        #expect(scales.isEmpty, "entering the output changed nothing")
        #expect(window.committedBufferScale == 2)
        let shot = try sway.screenshot()
        #expect(shot.width == 1600 && shot.pixel(1599, 1199) == [255, 0, 0])
    }

    @Test("a present before the frame callback is deferred, not dropped; the next buffer carries the last frame's rows")
    func framesPacePresents() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Frames", appID: "rc.frames"))
        #expect(run(loop, upTo: 5) { window.isConfigured })
        #expect(
            window.present { buffer in
                buffer.fill(rows: 0..<buffer.height, color: Self.red)
                return [buffer.bounds]
            })
        #expect(window.isFramePending)
        // Before the callback: kept, in order, and drawn into one frame when it comes.
        var order: [String] = []
        let second = window.present { buffer in
            order.append("blue")
            #expect(!buffer.needsFullRedraw)  // started from the red frame
            buffer.fill(rows: 0..<300, color: Self.blue)
            return [PixelRect(rows: 0..<300, width: buffer.width)]
        }
        let third = window.present { _ in
            order.append("nothing")
            return []
        }
        #expect(!second && !third)
        #expect(window.deferredDrawCount == 2)
        #expect(window.framesCommitted == 1)
        #expect(run(loop, upTo: 5) { window.framesCommitted == 2 })
        #expect(order == ["blue", "nothing"])
        #expect(window.deferredDrawCount == 0)
        #expect(run(loop, upTo: 5) { window.framesDone == 2 })
        // A frame that draws nothing but damages every row shows the buffer as it was handed over:
        // the top half blue from the last frame, the bottom red from the one before.
        let fourth = window.present { buffer in [buffer.bounds] }
        #expect(run(loop, upTo: 5) { window.framesDone == 3 })
        _ = fourth
        let shot = try sway.screenshot()
        #expect(shot.pixel(400, 100) == [0, 0, 255])
        #expect(shot.pixel(400, 500) == [255, 0, 0])
    }

    @Test(
        "a focus move's two tiles: two damage rectangles, only they are copied into the other buffer, and every pixel on screen is right"
    )
    func damageByRectangle() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Tiles", appID: "rc.tiles"))
        #expect(run(loop, upTo: 5) { window.isConfigured })
        let green: UInt32 = 0xFF_00_FF_00
        let tiles = [
            PixelRect(x: 100, y: 100, width: 40, height: 40), PixelRect(x: 600, y: 400, width: 40, height: 40),
            PixelRect(x: 300, y: 120, width: 40, height: 40), PixelRect(x: 700, y: 20, width: 40, height: 40),
        ]
        // Red, then one tile blue, then two green (the focus move), then one more blue.
        let frames: [(PixelBuffer) -> [PixelRect]] = [
            { buffer in
                buffer.fill(buffer.bounds, color: Self.red)
                return [buffer.bounds]
            },
            { buffer in
                buffer.fill(tiles[0], color: Self.blue)
                return [tiles[0]]
            },
            { buffer in
                buffer.fill(tiles[1], color: green)
                buffer.fill(tiles[2], color: green)
                return [tiles[1], tiles[2]]
            },
            { buffer in
                buffer.fill(tiles[3], color: Self.blue)
                return [tiles[3]]
            },
        ]
        var damage: [[PixelRect]] = []
        var copies: [[Int]] = []
        for (index, frame) in frames.enumerated() {
            window.present(draw: frame)
            #expect(run(loop, upTo: 5) { window.framesCommitted == index + 1 && window.framesDone == index + 1 })
            damage.append(window.lastDamage)
            copies.append([window.lastCopy.rects, window.lastCopy.bytes])
        }
        #expect(window.width == 800 && window.height == 600)
        #expect(
            damage == [[PixelRect(x: 0, y: 0, width: 800, height: 600)], [tiles[0]], [tiles[1], tiles[2]], [tiles[3]]])
        // The second buffer starts as a copy of the first; then each copies only the tiles it missed
        // (full rows would be 40 × 3,200 bytes a tile).
        let tile = 40 * 40 * 4
        #expect(copies == [[0, 0], [1, 800 * 600 * 4], [1, tile], [2, 2 * tile]])
        let shot = try sway.screenshot()
        #expect(shot.pixel(120, 120) == [0, 0, 255])
        #expect(shot.pixel(620, 420) == [0, 255, 0] && shot.pixel(320, 140) == [0, 255, 0])
        #expect(shot.pixel(720, 40) == [0, 0, 255])
        // Everything else is the first frame's red: count the pixels that are not.
        var wrong = 0
        for y in 0..<shot.height {
            for x in 0..<shot.width
            where !tiles.contains(where: { $0.contains(PixelRect(x: x, y: y, width: 1, height: 1)) }) {
                let at = (y * shot.width + x) * 3
                if shot.rgb[at] != 255 || shot.rgb[at + 1] != 0 || shot.rgb[at + 2] != 0 { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    /// A checker of single device pixels: (x + y) even `even`, else `odd`.
    static func drawChecker(_ buffer: PixelBuffer, even: UInt32, odd: UInt32) {
        let words = buffer.pixels.bindMemory(to: UInt32.self)
        let perRow = buffer.stride / 4
        for y in 0..<buffer.height {
            for x in 0..<buffer.width { words[y * perRow + x] = ((x + y) % 2 == 0 ? even : odd).littleEndian }
        }
    }

    /// How many pixels of a screenshot are not the checker of `even` and `odd` (as red, green, blue).
    static func checkerMisses(_ shot: SwayHeadless.Screenshot, even: [UInt8], odd: [UInt8]) -> Int {
        var misses = 0
        for y in 0..<shot.height {
            for x in 0..<shot.width {
                let at = (y * shot.width + x) * 3
                let expected = (x + y) % 2 == 0 ? even : odd
                if shot.rgb[at] != expected[0] || shot.rgb[at + 1] != expected[1] || shot.rgb[at + 2] != expected[2] {
                    misses += 1
                }
            }
        }
        return misses
    }

    @Test(
        "an output set to scale 2 at run time: buffers twice the points, set_buffer_scale(2), a one-pixel checker stays sharp; back to scale 1, everything is drawn again at the new size"
    )
    func outputScaleFollowed() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        #expect(connection.outputs.map(\.name) == ["HEADLESS-1"])
        let window = try WaylandWindow(connection: connection, options: .init(title: "Checker", appID: "rc.checker"))
        // White and black at scale 2, red and blue at scale 1: a screenshot tells which frame it shows.
        let white: UInt32 = 0xFF_FF_FF_FF
        let black: UInt32 = 0xFF_00_00_00
        var drawn: [[Int]] = []
        let draw = { (buffer: PixelBuffer) -> [PixelRect] in
            drawn.append([buffer.width, buffer.height, buffer.scale, buffer.needsFullRedraw ? 1 : 0])
            if buffer.scale == 2 {
                Self.drawChecker(buffer, even: white, odd: black)
            } else {
                Self.drawChecker(buffer, even: Self.red, odd: Self.blue)
            }
            return [buffer.bounds]
        }
        var scales: [Int] = []
        window.onScaleChange = { scale in
            scales.append(scale)
            window.present(draw: draw)
        }
        window.onResize = { _, _ in window.present(draw: draw) }
        #expect(run(loop, upTo: 5) { window.isConfigured })
        window.present(draw: draw)
        #expect(run(loop, upTo: 5) { window.framesDone >= 1 && window.enteredOutputCount == 1 })
        #expect(window.scale == 1 && window.committedBufferScale == 1)
        #expect(Self.checkerMisses(try sway.screenshot(), even: [255, 0, 0], odd: [0, 0, 255]) == 0)

        try sway.run(["swaymsg", "output", "HEADLESS-1", "scale", "2"])
        // sway sends the output's scale and a configure of 400x300 points: the window draws 800x600 pixels.
        #expect(
            run(loop, upTo: 5) {
                window.scale == 2 && drawn.last == [800, 600, 2, 1] && window.framesDone == window.framesCommitted
            }, "\(drawn)")
        _ = run(loop, upTo: 0.2) { false }
        #expect(scales == [2])
        #expect(connection.outputs.map(\.scale) == [2])
        #expect(window.width == 400 && window.height == 300)
        #expect(window.bufferWidth == 800 && window.bufferHeight == 600)
        #expect(window.committedBufferScale == 2)
        let sharp = try sway.screenshot()
        #expect(sharp.width == 800 && sharp.height == 600)
        // Drawn at scale 1 and magnified, every other pixel would be wrong.
        #expect(Self.checkerMisses(sharp, even: [255, 255, 255], odd: [0, 0, 0]) == 0)

        try sway.run(["swaymsg", "output", "HEADLESS-1", "scale", "1"])
        #expect(
            run(loop, upTo: 5) {
                window.scale == 1 && drawn.last == [800, 600, 1, 1] && window.framesDone == window.framesCommitted
            }, "\(drawn)")
        _ = run(loop, upTo: 0.2) { false }
        #expect(scales == [2, 1])
        #expect(window.width == 800 && window.bufferWidth == 800 && window.committedBufferScale == 1)
        #expect(Self.checkerMisses(try sway.screenshot(), even: [255, 0, 0], odd: [0, 0, 255]) == 0)
    }

    @Test(
        "the buffers are made before the first configure, at the output's size, the first made resident on a thread; the first frame draws into them"
    )
    func buffersBeforeTheConfigure() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let window = try WaylandWindow(
            connection: connection,
            options: .init(title: "Early", appID: "rc.early", defaultWidth: 320, defaultHeight: 200)
        )
        // Not configured yet: the pool is the output's size (sway's configure of 0x0 leaves it to the window), not
        // the default size.
        #expect(!window.isConfigured)
        #expect(window.pool.map { [$0.width, $0.height, $0.scale, $0.made] } == [800, 600, 1, 1])
        let pages = window.residentPages()
        #expect(pages.total == 800 * 600 * 4 / 4096 && pages.advised != nil, "\(pages)")
        // A kernel before 5.14 refuses the advice (the frame faults the pages in as before): then nothing is said
        // of them.
        if pages.advised == true {
            #expect(pages.resident == pages.total, "the first buffer is resident: \(pages)")
        }
        var drawn: [[Int]] = []
        window.onResize = { [unowned window] _, _ in
            window.present { buffer in
                drawn.append([buffer.width, buffer.height])
                buffer.fill(rows: 0..<buffer.height, color: Self.blue)
                return [buffer.bounds]
            }
        }
        #expect(run(loop, upTo: 5) { window.framesDone >= 1 })
        #expect(drawn == [[800, 600]])
        #expect(window.pool.map { $0.made } == 1, "the first frame drew into the pool made before the configure")
        // A full-screen window of another size is given its output's size all the same; a window that is not
        // full screen gets its default size, and a pool of that size first.
        let windowed = try WaylandWindow(
            connection: connection,
            options: .init(
                title: "Windowed", appID: "rc.windowed", fullscreen: false, defaultWidth: 320, defaultHeight: 200))
        #expect(windowed.pool.map { [$0.width, $0.height] } == [320, 200])
        windowed.close()
    }

    @Test("an ARGB8888 window shows its opaque pixels")
    func argbWindow() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let window = try WaylandWindow(
            connection: connection, options: .init(title: "Green", appID: "rc.green", format: .argb8888))
        var formats: [WaylandWindow.PixelFormat] = []
        let drawGreen = { (buffer: PixelBuffer) -> [PixelRect] in
            formats.append(buffer.format)
            buffer.fill(rows: 0..<buffer.height, color: 0xFF_00_FF_00)
            return [buffer.bounds]
        }
        window.onResize = { _, _ in window.present(draw: drawGreen) }
        // Before the first configure nothing may be attached: the drawing is kept until it comes.
        #expect(!window.present(draw: drawGreen))
        #expect(window.deferredDrawCount == 1 && !window.isConfigured)
        #expect(run(loop, upTo: 5) { window.isConfigured })
        // The default size is the output's: full screen after mapping changes nothing, so no redraw.
        #expect(run(loop, upTo: 5) { window.framesDone == 1 })
        _ = run(loop, upTo: 0.2) { false }
        #expect(window.width == 800 && window.height == 600)
        #expect(formats == [.argb8888])
        let shot = try sway.screenshot()
        #expect(shot.pixel(400, 300) == [0, 255, 0])
    }

    @Test("a resize from the compositor is acknowledged and reported")
    func resizeReported() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Resize", appID: "rc.resize"))
        var resizes: [[Int]] = []
        window.onResize = { resizes.append([$0, $1]) }
        #expect(run(loop, upTo: 5) { window.isConfigured })
        window.present { buffer in
            buffer.fill(rows: 0..<buffer.height, color: Self.red)
            return [buffer.bounds]
        }
        #expect(run(loop, upTo: 5) { window.framesDone == 1 })
        try sway.run(["swaymsg", "output", "HEADLESS-1", "resolution", "640x480"])
        #expect(run(loop, upTo: 5) { window.width == 640 })
        #expect(window.height == 480)
        #expect(resizes.last == [640, 480])
        var fullRedraw = false
        window.present { buffer in
            fullRedraw = buffer.needsFullRedraw && buffer.width == 640
            buffer.fill(rows: 0..<buffer.height, color: Self.blue)
            return [buffer.bounds]
        }
        #expect(run(loop, upTo: 5) { window.framesDone == 2 })
        #expect(fullRedraw)
        let shot = try sway.screenshot()
        #expect(shot.width == 640)
        #expect(shot.pixel(320, 240) == [0, 0, 255])
    }

    @Test("the compositor's close request reaches onClose")
    func closeRequestReported() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Close", appID: "rc.close"))
        var closes = 0
        window.onClose = { closes += 1 }
        #expect(run(loop, upTo: 5) { window.isConfigured })
        window.present { buffer in
            buffer.fill(rows: 0..<buffer.height, color: Self.red)
            return [buffer.bounds]
        }
        #expect(run(loop, upTo: 5) { window.framesDone == 1 })
        try sway.run(["swaymsg", "[app_id=rc.close]", "kill"])
        #expect(run(loop, upTo: 5) { closes == 1 })
    }

    @Test("idle: the loop does not wake when nothing happens")
    func idleWakesNever() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Idle", appID: "rc.idle"))
        #expect(run(loop, upTo: 5) { window.isConfigured })
        window.present { buffer in
            buffer.fill(rows: 0..<buffer.height, color: Self.red)
            return [buffer.bounds]
        }
        #expect(run(loop, upTo: 5) { window.framesDone == 1 })
        _ = run(loop, upTo: 0.3) { false }  // whatever the compositor still sends after the frame
        // 0.5 s of waiting in the kernel: the compositor's socket never wakes the loop. (The loop's
        // batches are not counted: in a full test run other suites' signals interrupt epoll_wait.
        // Alone, this test sees exactly one batch, the timeout's.)
        let wakeupsBefore = connection.socketWakeups
        let end = EventLoop.monotonicNow + 0.5
        while EventLoop.monotonicNow < end { loop.runOnce(timeout: end - EventLoop.monotonicNow) }
        #expect(connection.socketWakeups == wakeupsBefore)
        #expect(connection.disconnectError == nil)
    }
}
