import LinuxKeyboard
import ResponderChain
import Testing

/// The display choice on a machine without a DRM device (this one, a container): `.display` fails
/// at once naming /dev/dri and the fix; `.automatic` never picks it. The display itself is tested in
/// the VM (Tools/vm-test kiosk-display, display-errors).
@MainActor @Suite struct KeyboardAppDisplayTests {
    func tree() -> (Window, FocusNode) {
        let window = Window(identifier: "w")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 80, height: 24))
        window.addChild(root)
        return (window, root)
    }

    @Test("output .display with no DRM device fails with the display code, naming /dev/dri and the driver fix")
    func noDevice() throws {
        try #require(KeyboardApp.displayDevices.isEmpty, "this machine has a DRM device: the VM tests cover it")
        let (window, root) = tree()
        var configuration = KeyboardApp.Configuration()
        configuration.output = .display
        configuration.seatAccess = .direct
        configuration.environment = ["WAYLAND_DISPLAY": "wayland-9"]
        #expect {
            _ = try KeyboardApp(window: window, root: root, configuration: configuration)
        } throws: { error in
            guard let error = error as? AppError else { return false }
            return error.code == .display
                && error.message.hasPrefix("no DRM device: /dev/dri has no card; load the GPU's driver")
        }
    }

    @Test("output .automatic without a DRM device runs as before: no display, no note about one")
    func automatic() throws {
        try #require(KeyboardApp.displayDevices.isEmpty, "this machine has a DRM device: the VM tests cover it")
        let (window, root) = tree()
        var configuration = KeyboardApp.Configuration()
        configuration.input = .keyboards
        configuration.environment = [:]
        configuration.terminalInput = -1
        configuration.terminalOutput = -1
        let app = try KeyboardApp(window: window, root: root, configuration: configuration)
        #expect(app.display == nil)
        #expect(app.displayNote == nil)
        #expect(app.keyboards != nil)
    }
}
