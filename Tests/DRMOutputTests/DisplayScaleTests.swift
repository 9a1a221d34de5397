import Testing

@testable import DRMOutput

/// The scale a display is drawn at, from its size and mode: the table in `DisplayScale`'s documentation.
@Suite("The display's scale")
struct DisplayScaleTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var pixels: (Int, Int)
        var millimetres: (Int, Int)
        var scale: Double
        var description: String { name }
    }

    static let displays = [
        Case(name: "QEMU's virtio-gpu: 320x200 mm", pixels: (1280, 800), millimetres: (320, 200), scale: 1),
        Case(name: "7-inch 800x480: 1.25 leaves too little", pixels: (800, 480), millimetres: (154, 86), scale: 1),
        Case(name: "10.1-inch 1280x800", pixels: (1280, 800), millimetres: (217, 136), scale: 1.5),
        Case(name: "15.6-inch 1920x1080", pixels: (1920, 1080), millimetres: (344, 194), scale: 1.5),
        Case(name: "21.5-inch 1920x1080", pixels: (1920, 1080), millimetres: (476, 268), scale: 1),
        Case(name: "27-inch 3840x2160", pixels: (3840, 2160), millimetres: (597, 336), scale: 1.5),
        Case(name: "13.3-inch 2560x1600", pixels: (2560, 1600), millimetres: (286, 179), scale: 2),
        Case(name: "a 32-inch 7680x4320 stays at 2", pixels: (7680, 4320), millimetres: (698, 393), scale: 2),
        Case(name: "no size: a projector", pixels: (1920, 1080), millimetres: (0, 0), scale: 1),
        Case(name: "an aspect ratio as a size", pixels: (3840, 2160), millimetres: (160, 90), scale: 1),
        Case(name: "another aspect ratio", pixels: (3840, 2400), millimetres: (1600, 1000), scale: 1),
    ]

    @Test("The nearest of 1, 1.25, 1.5 and 2 to about 103 points per inch", arguments: displays)
    func automatic(_ display: Case) {
        let mode = DisplayMode(width: display.pixels.0, height: display.pixels.1, refresh: 60)
        let connector = DisplayConnector(
            id: 1, name: "HDMI-A-1", isConnected: true, modes: [mode], crtcs: [1],
            physicalWidth: display.millimetres.0, physicalHeight: display.millimetres.1)
        #expect(DisplayScale.automatic(for: mode, on: connector) == display.scale)
        if let density = DisplayScale.pixelsPerInch(of: mode, on: connector) {
            let points = density / display.scale
            #expect(points > 88 && points < 140, "\(points) points per inch")
        }
    }

    @Test("The density along the diagonal")
    func density() throws {
        let mode = DisplayMode(width: 1280, height: 800, refresh: 60)
        let qemu = DisplayConnector(
            id: 1, name: "Virtual-1", isConnected: true, modes: [mode], crtcs: [1], physicalWidth: 320,
            physicalHeight: 200)
        let density = try #require(DisplayScale.pixelsPerInch(of: mode, on: qemu))
        #expect(abs(density - 101.6) < 0.05, "1280 pixels across 320 mm: 101.6 dpi")
        let unknown = DisplayConnector(id: 1, name: "Virtual-1", isConnected: true, modes: [mode], crtcs: [1])
        #expect(DisplayScale.pixelsPerInch(of: mode, on: unknown) == nil)
    }
}
