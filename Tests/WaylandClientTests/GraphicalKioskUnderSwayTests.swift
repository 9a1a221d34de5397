import Foundation
import Glibc
import PixelCanvas
import Testing

/// The kiosk example's graphical face (its default on a screen) as a kiosk builder runs it: the built
/// `kiosk-example` under sway headless at 1920x1080, keys from `wtype`, taps from `wayland-pointer` at
/// the frames `keytrace --attach --json` reports, screens from `grim` compared with golden images in
/// `Golden/graphical-*.png`: home, check-in with the on-screen keyboard (`--on-screen-keyboard`: the
/// seat always reports a keyboard) and letters typed by tapping its keys, the dialog, the directory;
/// the home screen on a 3840x2160 output at scale 2 (drawn at 3840x2160 from its first frame, not
/// upscaled); and the Hebrew face (`--rtl`), mirrored, with the welcome's 欢迎 through the fallback
/// font.
///
/// Images are compared in blocks of 24x24 pixels, each at the best of the nine offsets of at most a
/// pixel (hinting and antialiasing move an edge by one): a block matches when its pixels differ from
/// the golden's by at most 6 levels on average (the largest channel difference of each pixel) and at
/// most 24 of them by more than 96 levels. The mean passes the soft edges of anti-aliased text; the
/// count fails what a mean dilutes: a missing focus ring (a 2-point line), a glyph turned into a tofu
/// box, a caret. `UPDATE_GOLDEN=1` writes them anew; look at them before committing. A failing
/// screen is written to the temporary directory as `got-NAME` beside the message.
@Suite("The kiosk example's graphical face under sway headless", .serialized)
@MainActor
struct GraphicalKioskUnderSwayTests {
    typealias Kiosk = KioskUnderSwayTests.Kiosk

    static let goldenDirectory = KioskUnderSwayTests.goldenDirectory
    static let block = 24
    static let meanTolerance = 6
    static let strongLevel = 96
    static let strongPixels = 24

    // MARK: The screens

    @Test(
        "at 1920x1080: home (focus lifted on Check in), a tap on Check in, \"Ada\" tapped on the on-screen keyboard (its own device in the trace), the dialog, the directory"
    )
    func screens() throws {
        let kiosk = try Kiosk(arguments: ["--on-screen-keyboard"], resolution: "1920x1080")
        defer { kiosk.stop() }
        try Self.waitForHome(kiosk)
        try Self.expectGolden(Self.settledScreenshot(kiosk), "graphical-home-1920x1080.png")

        // A tap on the Check in tile opens the form, focus in the name, the keyboard under it.
        try tap(kiosk, "tile-checkin")
        try kiosk.waitForFocus("name")
        for key in ["key-shift", "key-A", "key-d", "key-a"] { try tap(kiosk, key) }
        let typed = try kiosk.waitFor("\"Ada\" typed") {
            $0["event"] as? String == "key" && $0["phase"] as? String == "down" && $0["characters"] as? String == "a"
        }
        // The three letters came from the on-screen keyboard's device, not the seat's keyboard.
        let letters = kiosk.trace.filter {
            $0["event"] as? String == "key" && $0["phase"] as? String == "down"
                && ["A", "d", "a"].contains($0["characters"] as? String ?? "")
        }
        #expect(letters.map { $0["characters"] as? String } == ["A", "d", "a"], "\(letters)")
        let devices = Set(letters.map { "\($0["device"] ?? "-")" })
        #expect(devices.count == 1 && devices.first == "\(typed["device"] ?? "?")")
        try Self.expectGolden(Self.settledScreenshot(kiosk), "graphical-checkin-keyboard-1920x1080.png")

        // The PIN from the seat's keyboard, the consent ticked, Right to Check in beside it: the dialog asks to confirm.
        try kiosk.keys("-k", "Return")
        try kiosk.waitForFocus("pin")
        try kiosk.keys("-k", "KP_4", "-k", "KP_7", "-k", "KP_2", "-k", "KP_1")
        let seatKey = try kiosk.waitFor("the PIN's first key (masked)") {
            $0["event"] as? String == "key" && $0["phase"] as? String == "down" && $0["key"] as? String == "•"
        }
        #expect(
            "\(seatKey["device"] ?? "?")" != devices.first, "the letters came from the on-screen keyboard's device")
        try kiosk.keys("-k", "Return")
        try kiosk.waitForFocus("consent")
        try kiosk.keys("-k", "space", "-k", "Right")
        try kiosk.waitForFocus("submit")
        try kiosk.keys("-k", "Return")
        try kiosk.waitForFocus("confirm")
        try Self.expectGolden(Self.settledScreenshot(kiosk), "graphical-dialog-1920x1080.png")

        // Escape closes it; the menu's Directory, a tap on the search, "an" tapped on the keyboard.
        try kiosk.keys("-k", "Escape")
        try kiosk.waitForFocus("submit")
        try tap(kiosk, "nav-directory")
        try tap(kiosk, "search")
        try kiosk.waitForFocus("search")
        for key in ["key-a", "key-n"] { try tap(kiosk, key) }
        try kiosk.waitFor("\"an\" typed") {
            $0["event"] as? String == "key" && $0["phase"] as? String == "down" && $0["characters"] as? String == "n"
        }
        try Self.expectGolden(Self.settledScreenshot(kiosk), "graphical-directory-1920x1080.png")
    }

    @Test(
        "started again on the same rendered-SVG cache, the kiosk draws the same home screen without mapping librsvg"
    )
    func svgCacheSecondStart() throws {
        let cache = NSTemporaryDirectory() + "kiosk-svg-cache-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        for run in 0..<2 {
            let kiosk = try Kiosk(
                arguments: ["--on-screen-keyboard"], resolution: "1920x1080",
                environment: ["RESPONDERCHAIN_SVG_CACHE": cache])
            defer { kiosk.stop() }
            try Self.waitForHome(kiosk)
            // The screen drawn and settled first: the snapshot that says home may come before the first frame.
            let screen = try Self.settledScreenshot(kiosk)
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline,
                !((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).contains(where: {
                    $0.hasSuffix(".pixels")
                })
            {
                usleep(50_000)
            }
            // Read to its end: /proc files report no size, and one read may return a part of them.
            let handle = try #require(FileHandle(forReadingAtPath: "/proc/\(kiosk.kiosk.processIdentifier)/maps"))
            let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
            try handle.close()
            #expect(maps.contains("libcairo"), "the maps read whole")
            #expect(
                maps.contains("librsvg") == (run == 0), "run \(run + 1): librsvg mapped \(maps.contains("librsvg"))")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []
            #expect(files.contains { $0.hasSuffix(".pixels") }, "run \(run + 1): \(files)")
            try Self.expectGolden(screen, "graphical-home-1920x1080.png")
        }
    }

    @Test(
        "on a 3840x2160 output at scale 2: every window buffer is 3840x2160 at buffer scale 2 from the first frame, the focus layer's at scale 2 too (WAYLAND_DEBUG), and the screen is the 1920x1080 home at twice the pixels"
    )
    func scaleTwo() throws {
        let kiosk = try Kiosk(
            arguments: [], resolution: "3840x2160", scale: 2, environment: ["WAYLAND_DEBUG": "client"])
        defer { kiosk.stop() }
        try Self.waitForHome(kiosk)
        let image = try Self.settledScreenshot(kiosk)
        try Self.expectGolden(image, "graphical-home-3840x2160@2.png")
        // What the kiosk sent: the buffers attached to its window's surface (the first made) and to its
        // focus layer's (a subsurface), and their scale, before any attach.
        let log = (try? String(contentsOfFile: kiosk.stderrPath, encoding: .utf8)) ?? ""
        let lines = log.split(separator: "\n")
        func identifier(after marker: String, in line: Substring) -> String? {
            guard let start = line.range(of: marker)?.upperBound else { return nil }
            return String(line[start...].prefix { $0.isNumber })
        }
        var sizes: [String: [String]] = [:]
        for line in lines where line.contains(".create_buffer(") {
            guard let buffer = identifier(after: "new id wl_buffer@", in: line) else { continue }
            sizes[buffer] = line.split(separator: ",").dropFirst(2).prefix(2).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        let surfaces = lines.compactMap { identifier(after: "create_surface(new id wl_surface@", in: $0) }
        let window = try #require(surfaces.first)
        var attached: [String: [[String]]] = [:]
        var scaledFirst: [String: Bool] = [:]
        for line in lines where line.contains(" -> wl_surface@") {
            guard let surface = identifier(after: " -> wl_surface@", in: line) else { continue }
            if line.contains(".set_buffer_scale(2)"), scaledFirst[surface] == nil { scaledFirst[surface] = true }
            if let buffer = identifier(after: ".attach(wl_buffer@", in: line) {
                if scaledFirst[surface] == nil { scaledFirst[surface] = false }
                attached[surface, default: []].append(sizes[buffer] ?? [])
            }
        }
        let windowBuffers = attached[window] ?? []
        #expect(
            !windowBuffers.isEmpty && windowBuffers.allSatisfy { $0 == ["3840", "2160"] }, "buffers \(windowBuffers)")
        let layers = attached.filter { $0.key != window }
        #expect(layers.count == 1, "the focus layer's surface: \(attached.keys)")
        for (surface, buffers) in layers {
            #expect(
                buffers.allSatisfy { $0.count == 2 && $0.allSatisfy { Int($0).map { $0 % 2 == 0 } == true } },
                "the focus layer's buffers are whole points at scale 2: \(buffers)")
            #expect(scaledFirst[surface] == true, "the layer's set_buffer_scale(2) before its first attach")
        }
        #expect(scaledFirst[window] == true, "set_buffer_scale(2) before the first attach")
        // Halved, it is the picture at scale 1 (the same 1920x1080 points): sharp, the same layout.
        let golden = try PixelImage(
            contentsOfPNG: Self.goldenDirectory.appendingPathComponent(
                "graphical-home-1920x1080.png"
            ).path)
        let halved = Self.halved(image)
        // Text is hinted for its own pixels at each scale: the halved glyphs differ by a few levels at
        // their edges, so the mean alone is checked here, looser; a tile or a word out of place is far more.
        let failures = Self.differences(halved, golden, meanTolerance: 32, strongPixels: Self.block * Self.block)
        #expect(failures.isEmpty, "halved against the 1920x1080 home: \(failures.count) blocks: \(failures.prefix(6))")
    }

    @Test(
        "--rtl: the Hebrew face mirrored (the menu at the right, Check in the rightmost tile) with 欢迎 in the welcome"
    )
    func hebrew() throws {
        let kiosk = try Kiosk(arguments: ["--rtl", "--on-screen-keyboard"], resolution: "1920x1080")
        defer { kiosk.stop() }
        try Self.waitForHome(kiosk)
        let snapshot = try #require(kiosk.trace.last { $0["event"] as? String == "snapshot" })
        let scene = try #require(snapshot["scene"] as? [String: Any])
        #expect(scene["layoutDirection"] as? String == "rightToLeft")
        let tile = try #require(Self.frame(of: "tile-checkin", in: kiosk))
        let menu = try #require(Self.frame(of: "nav-home", in: kiosk))
        #expect(tile[0] > 960 && menu[0] > tile[0] + tile[2], "Check in at the right, the menu right of it")
        try Self.expectGolden(Self.settledScreenshot(kiosk), "graphical-home-rtl-1920x1080.png")
        // The check-in form in Hebrew, the keyboard under it.
        try tap(kiosk, "tile-checkin")
        try kiosk.waitForFocus("name")
        for key in ["key-k", "key-i", "key-m"] { try tap(kiosk, key) }
        try kiosk.waitFor("\"kim\" typed") {
            $0["event"] as? String == "key" && $0["phase"] as? String == "down" && $0["characters"] as? String == "m"
        }
        try Self.expectGolden(Self.settledScreenshot(kiosk), "graphical-checkin-rtl-1920x1080.png")
    }

    // MARK: Driving

    /// Taps the middle of a node where the kiosk has it now, and waits for the tap in the trace.
    func tap(_ kiosk: Kiosk, _ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let frame = try Self.shownFrame(of: id, in: kiosk)
        let (x, y) = (Int(frame[0] + frame[2] / 2), Int(frame[1] + frame[3] / 2))
        let ups = kiosk.trace.count { $0["event"] as? String == "pointer" && $0["phase"] as? String == "up" }
        #expect(kiosk.pointer.send("click \(x) \(y)") == "ok", sourceLocation: sourceLocation)
        var seen = 0
        try kiosk.waitFor("the tap on \(id)") {
            guard $0["event"] as? String == "pointer" && $0["phase"] as? String == "up" else { return false }
            seen += 1
            return seen > ups
        }
    }

    /// A node's frame `[x, y, width, height]` in points as the kiosk has it now: from the latest snapshot
    /// the suite's `keytrace --attach --json` watcher got (the kiosk sends one at the end of every frame
    /// that changed the tree's layout), waiting up to 5 s for one in which the node is shown.
    static func shownFrame(of id: String, in kiosk: Kiosk) throws -> [Double] {
        let deadline = Date().addingTimeInterval(5)
        while true {
            if let frame = frame(of: id, in: kiosk), frame[2] > 0 { return frame }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw SwayHeadless.Failure(description: "no \(id) shown in the tree") }
            let snapshots = kiosk.trace.count { $0["event"] as? String == "snapshot" }
            var seen = 0
            _ = try? kiosk.waitFor("a new snapshot", upTo: left) { event in
                guard event["event"] as? String == "snapshot" else { return false }
                seen += 1
                return seen > snapshots
            }
        }
    }

    /// Waits for the home screen at the screen's size: a tree snapshot with focus on the Check in tile and
    /// the root as large as the window (the first snapshot may come before the compositor's configure).
    static func waitForHome(_ kiosk: Kiosk) throws {
        try kiosk.waitFor("the home screen") { event in
            guard event["event"] as? String == "snapshot", event["focused"] as? String == "tile-checkin",
                let scene = event["scene"] as? [String: Any], let root = scene["root"] as? [String: Any],
                let frame = root["frame"] as? [NSNumber]
            else { return false }
            return frame[2].intValue == 1920
        }
    }

    /// A node's frame `[x, y, width, height]` in points in the latest tree snapshot, `nil` when it is not there.
    static func frame(of id: String, in kiosk: Kiosk) -> [Double]? {
        kiosk.trace.last { $0["event"] as? String == "snapshot" }.flatMap { frame(of: id, in: $0) }
    }

    /// A node's frame `[x, y, width, height]` in points in a tree snapshot, `nil` when it is not there.
    static func frame(of id: String, in snapshot: [String: Any]) -> [Double]? {
        guard let scene = snapshot["scene"] as? [String: Any], let root = scene["root"] as? [String: Any] else {
            return nil
        }
        func find(_ node: [String: Any]) -> [Double]? {
            if node["id"] as? String == id { return (node["frame"] as? [NSNumber])?.map(\.doubleValue) }
            for child in node["children"] as? [[String: Any]] ?? [] {
                if let found = find(child) { return found }
            }
            return nil
        }
        return find(root)
    }

    /// A screenshot once the window stopped changing (two in a row alike, 150 ms apart).
    static func settledScreenshot(_ kiosk: Kiosk) throws -> PixelImage {
        var last = try kiosk.sway.screenshot()
        for _ in 0..<30 {
            usleep(150_000)
            let next = try kiosk.sway.screenshot()
            if next.rgb == last.rgb { break }
            last = next
        }
        return kiosk.image(last)
    }

    // MARK: Comparing

    /// Compares a screen with its golden image (see the suite's comment), or writes it with `UPDATE_GOLDEN=1`.
    static func expectGolden(_ image: PixelImage, _ name: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let path = goldenDirectory.appendingPathComponent(name).path
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try image.writePNG(to: path)
            return
        }
        let golden = try PixelImage(contentsOfPNG: path)
        let failures = differences(image, golden)
        guard !failures.isEmpty else { return }
        let got = FileManager.default.temporaryDirectory.appendingPathComponent("got-\(name)").path
        try? image.writePNG(to: got)
        Issue.record(
            Comment(
                rawValue: "\(name): \(failures.count) blocks differ (the screen in \(got); UPDATE_GOLDEN=1 rewrites "
                    + "golden images): " + failures.prefix(8).joined(separator: "; ")),
            sourceLocation: sourceLocation)
    }

    /// The blocks that do not match, described; empty when the images match.
    static func differences(
        _ image: PixelImage, _ golden: PixelImage, meanTolerance: Int = meanTolerance, strongPixels: Int = strongPixels
    ) -> [String] {
        guard image.width == golden.width, image.height == golden.height else {
            return ["\(image.width)x\(image.height) pixels, golden \(golden.width)x\(golden.height)"]
        }
        let (width, height) = (image.width, image.height)
        return image.pixels.withUnsafeBufferPointer { a in
            golden.pixels.withUnsafeBufferPointer { b in
                var failures: [String] = []
                for top in stride(from: 0, to: height, by: block) {
                    for left in stride(from: 0, to: width, by: block) {
                        let (right, bottom) = (min(left + block, width), min(top + block, height))
                        let count = (right - left) * (bottom - top)
                        var best = (sum: Int.max, strong: Int.max)
                        // The offset 0 first: most blocks match there, and the eight others are not needed.
                        for (dx, dy) in [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1)] {
                            var sum = 0
                            var strong = 0
                            for y in top..<bottom {
                                let v = min(max(y + dy, 0), height - 1)
                                for x in left..<right {
                                    let u = min(max(x + dx, 0), width - 1)
                                    let p = v * image.stride + u * 4
                                    let q = y * golden.stride + x * 4
                                    let difference = max(
                                        abs(Int(a[p]) - Int(b[q])), abs(Int(a[p + 1]) - Int(b[q + 1])),
                                        abs(Int(a[p + 2]) - Int(b[q + 2])))
                                    sum += difference
                                    if difference > strongLevel { strong += 1 }
                                }
                            }
                            if sum < best.sum { best = (sum, strong) }
                            if sum <= meanTolerance * count && strong <= strongPixels {
                                best = (sum, strong)
                                break
                            }
                        }
                        if best.sum > meanTolerance * count || best.strong > strongPixels {
                            failures.append(
                                "block at \(left),\(top): \(best.sum / count) levels on average, \(best.strong) pixels "
                                    + "far off")
                        }
                    }
                }
                return failures
            }
        }
    }

    /// The image at half its size, each pixel the mean of four.
    static func halved(_ image: PixelImage) -> PixelImage {
        var half = PixelImage(width: image.width / 2, height: image.height / 2)
        for y in 0..<half.height {
            for x in 0..<half.width {
                let target = y * half.stride + x * 4
                for channel in 0..<4 {
                    var sum = 0
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        sum += Int(image.pixels[(2 * y + dy) * image.stride + (2 * x + dx) * 4 + channel])
                    }
                    half.pixels[target + channel] = UInt8(sum / 4)
                }
            }
        }
        return half
    }

    @Test("the comparison passes a one-pixel shift of a screen and fails a missing ring and another word")
    func comparison() throws {
        let golden = try PixelImage(
            contentsOfPNG: Self.goldenDirectory.appendingPathComponent("graphical-home-1920x1080.png").path)
        var shifted = PixelImage(width: golden.width, height: golden.height)
        for y in 0..<golden.height {
            for x in 0..<golden.width {
                let source = y * golden.stride + min(x + 1, golden.width - 1) * 4
                for channel in 0..<4 {
                    shifted.pixels[y * shifted.stride + x * 4 + channel] = golden.pixels[source + channel]
                }
            }
        }
        #expect(Self.differences(shifted, golden).isEmpty)
        // A 2-pixel line of another colour across a block (a focus ring that is not there, or is).
        var ringed = golden
        for y in 300..<302 {
            for x in 1000..<1100 { for channel in 0..<3 { ringed.pixels[y * ringed.stride + x * 4 + channel] = 0 } }
        }
        #expect(!Self.differences(ringed, golden).isEmpty)
        #expect(Self.differences(PixelImage(width: 10, height: 10), golden) == ["10x10 pixels, golden 1920x1080"])
    }
}
