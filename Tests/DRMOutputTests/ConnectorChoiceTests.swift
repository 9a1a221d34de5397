import Testing

@testable import DRMOutput

@Suite("Connector and mode choice")
struct ConnectorChoiceTests {
    let hdmi1 = DisplayConnector(id: 40, name: "HDMI-A-1", isConnected: false, modes: [], crtcs: [30, 31])
    let hdmi2 = DisplayConnector(
        id: 41, name: "HDMI-A-2", isConnected: true,
        modes: [
            DisplayMode(width: 1024, height: 768, refresh: 60),
            DisplayMode(width: 1920, height: 1080, refresh: 60, isPreferred: true),
            DisplayMode(width: 1280, height: 720, refresh: 60),
        ], crtcs: [31, 30])
    let dsi = DisplayConnector(
        id: 42, name: "DSI-1", isConnected: true, modes: [DisplayMode(width: 800, height: 480, refresh: 60)],
        crtcs: [32])

    @Test("The first connected connector in its preferred mode, on the CRTC driving it now")
    func firstConnected() throws {
        let chosen = try ConnectorChoice.choose([hdmi1, hdmi2, dsi], name: nil, size: nil, path: "/dev/dri/card0")
            .get()
        #expect(chosen.connector.name == "HDMI-A-2")
        #expect(chosen.mode == DisplayMode(width: 1920, height: 1080, refresh: 60, isPreferred: true))
        #expect(chosen.crtc == 31)
    }

    @Test("A connector named, and a mode by its size; without a preferred mode, the first")
    func named() throws {
        let byName = try ConnectorChoice.choose([hdmi1, hdmi2, dsi], name: "DSI-1", size: nil, path: "c").get()
        #expect(byName.mode == DisplayMode(width: 800, height: 480, refresh: 60))
        let bySize = try ConnectorChoice.choose([hdmi2], name: nil, size: (1280, 720), path: "c").get()
        #expect(bySize.modeIndex == 2)
    }

    @Test("No connected display: the error lists every connector and its state")
    func noneConnected() {
        let result = ConnectorChoice.choose([hdmi1], name: nil, size: nil, path: "/dev/dri/card0")
        guard case .failure(let error) = result else {
            Issue.record("chose \(result)")
            return
        }
        #expect(error.code == .noConnector)
        #expect(error.path == "/dev/dri/card0")
        #expect(
            error.message
                == "/dev/dri/card0 has no connected display (HDMI-A-1 (disconnected)): plug a display in, or check its cable"
        )
    }

    @Test("A connector named that does not exist, or is not connected, names the others")
    func wrongName() {
        guard case .failure(let missing) = ConnectorChoice.choose([hdmi1, dsi], name: "DP-1", size: nil, path: "c")
        else {
            Issue.record("chose DP-1")
            return
        }
        #expect(
            missing.message
                == "c has no connector named DP-1 (HDMI-A-1 (disconnected), DSI-1 (connected, 800x480@60)); name one of those"
        )
        guard case .failure(let off) = ConnectorChoice.choose([hdmi1, dsi], name: "HDMI-A-1", size: nil, path: "c")
        else {
            Issue.record("chose HDMI-A-1")
            return
        }
        #expect(off.message.hasPrefix("HDMI-A-1 on c is not connected ("))
    }

    @Test("A size the display does not offer names the sizes it does")
    func wrongSize() {
        guard case .failure(let error) = ConnectorChoice.choose([hdmi2], name: nil, size: (640, 480), path: "c")
        else {
            Issue.record("chose 640x480")
            return
        }
        #expect(error.message == "HDMI-A-2 offers no 640x480 mode (it offers 1024x768, 1280x720, 1920x1080)")
    }

    @Test("A connected connector without modes or without a CRTC is refused with the reason")
    func noModesNoCRTC() {
        let blind = DisplayConnector(id: 1, name: "VGA-1", isConnected: true, modes: [], crtcs: [1])
        guard case .failure(let noModes) = ConnectorChoice.choose([blind], name: nil, size: nil, path: "c") else {
            Issue.record("chose a connector without modes")
            return
        }
        #expect(noModes.message.contains("offers no mode"))
        var busy = dsi
        busy.crtcs = []
        guard case .failure(let noCRTC) = ConnectorChoice.choose([busy], name: nil, size: nil, path: "c") else {
            Issue.record("chose a connector without a CRTC")
            return
        }
        #expect(noCRTC.code == .unsupported)
    }

    @Test(
        "Connector names follow the kernel's types and numbers",
        arguments: [
            (UInt32(11), UInt32(1), "HDMI-A-1"), (15, 1, "Virtual-1"), (14, 2, "eDP-2"), (16, 1, "DSI-1"),
            (99, 3, "Unknown99-3"),
        ])
    func names(type: UInt32, number: UInt32, name: String) {
        #expect(DisplayConnector.name(type: type, number: number) == name)
    }
}
