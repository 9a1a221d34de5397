import LinuxKeyboard
import PlatformDisplay
import ResponderChain
import Testing

/// The display platform on a machine without a DRM device (this one, a container): listed alone it
/// fails at once naming /dev/dri and the fix; listed before the console, its probe passes it over
/// and says why. The display itself is tested in the VM (Tools/vm-test kiosk-display, display-errors).
@MainActor @Suite struct DisplayPlatformTests {
    func tree() -> (Window, FocusNode) {
        let window = Window(identifier: "w")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 80, height: 24))
        window.addChild(root)
        return (window, root)
    }

    @Test("listed alone with no DRM device: fails with the display code, naming /dev/dri and the driver fix")
    func noDevice() throws {
        try #require(DisplayPlatform.devices.isEmpty, "this machine has a DRM device: the VM tests cover it")
        let (window, root) = tree()
        var configuration = KeyboardApp.Configuration()
        configuration.seatAccess = .direct
        // Listed alone, it is not probed: a compositor named, a terminal attached, it still tries.
        configuration.environment = ["WAYLAND_DISPLAY": "wayland-9"]
        #expect {
            _ = try KeyboardApp(
                window: window, root: root, configuration: configuration, platforms: [DisplayPlatform()])
        } throws: { error in
            guard let error = error as? AppError else { return false }
            return error.code == .display
                && error.message.hasPrefix("no DRM device: /dev/dri has no card; load the GPU's driver")
        }
    }

    @Test("before the console, with no terminal and no DRM device: passed over, with the reason; no failure note")
    func probedAway() throws {
        try #require(DisplayPlatform.devices.isEmpty, "this machine has a DRM device: the VM tests cover it")
        let (window, root) = tree()
        var configuration = KeyboardApp.Configuration()
        configuration.input = .keyboards
        configuration.environment = [:]
        configuration.terminalInput = -1
        configuration.terminalOutput = -1
        configuration.inspection.isEnabled = false
        let app = try KeyboardApp(
            window: window, root: root, configuration: configuration, platforms: [DisplayPlatform(), ConsolePlatform()])
        #expect(app.display == nil)
        #expect(app.platform.name == "console")
        #expect(app.platformFailures.isEmpty)
        #expect(app.platformNote == "display: no DRM device (/dev/dri/card*)")
        #expect(app.keyboards != nil)
    }

    @Test("the probe: a compositor, a terminal, the terminal asked for, no device each pass the display over")
    func probe() {
        let display = DisplayPlatform()
        func reason(_ variables: [String: String], terminal: Bool, input: KeyboardApp.InputChoice = .automatic)
            -> String?
        {
            var configuration = KeyboardApp.Configuration()
            configuration.input = input
            return display.probe(
                PlatformEnvironment(variables: variables, configuration: configuration, hasTerminal: terminal))
        }
        #expect(reason(["WAYLAND_DISPLAY": "wayland-1"], terminal: false) == "a compositor is named (WAYLAND_DISPLAY)")
        #expect(reason([:], terminal: true)?.hasPrefix("started from a terminal") == true)
        #expect(reason([:], terminal: false, input: .terminal) == "the configuration asks for the terminal")
        let alone = reason([:], terminal: false)
        #expect(
            DisplayPlatform.devices.isEmpty ? alone == "no DRM device (/dev/dri/card*)" : alone == nil,
            "with no terminal and no compositor, only the device decides")
    }
}

/// The display platform asked to draw nodes: the same probe and the same failure without a device.
@MainActor @Suite struct DisplayPlatformNodesTests {
    @Test("drawing nodes, listed alone with no DRM device: fails with the display code, naming /dev/dri")
    func noDevice() throws {
        try #require(DisplayPlatform.devices.isEmpty, "this machine has a DRM device: the VM tests cover it")
        let window = Window(identifier: "w")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 1280, height: 800))
        window.addChild(root)
        var configuration = KeyboardApp.Configuration()
        configuration.seatAccess = .direct
        configuration.screenDrawing = .nodes
        configuration.environment = ["WAYLAND_DISPLAY": "wayland-9"]
        var options = DisplayPlatform.Options()
        options.scale = 2
        #expect {
            _ = try KeyboardApp(
                window: window, root: root, configuration: configuration,
                platforms: [DisplayPlatform(options: options)])
        } throws: { error in
            guard let error = error as? AppError else { return false }
            return error.code == .display && error.message.hasPrefix("no DRM device: /dev/dri has no card")
        }
    }
}
