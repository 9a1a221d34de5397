import LinuxKeyboard
import PlatformWayland
import ResponderChain
import Testing

/// The Wayland platform's choice, without a compositor (the window itself is tested under sway in
/// WaylandClientTests and KioskUnderSwayTests).
@MainActor @Suite struct WaylandPlatformTests {
    func configuration(_ variables: [String: String]) -> KeyboardApp.Configuration {
        var configuration = KeyboardApp.Configuration()
        configuration.environment = variables
        configuration.inspection.isEnabled = false
        return configuration
    }

    @Test("an app that draws nodes loads no cell font while it starts (Pango draws its text); a canvas does")
    func cellFontOnlyForCanvas() {
        for drawsNodes in [true, false] {
            var configuration = configuration(["WAYLAND_DISPLAY": "wayland-0"])
            configuration.screenDrawing = drawsNodes ? .nodes : .canvas
            let platform = WaylandPlatform()
            platform.prepare(PlatformEnvironment(variables: [:], configuration: configuration, hasTerminal: false))
            #expect(platform.isLoadingCellFont == !drawsNodes, "nodes: \(drawsNodes)")
        }
    }

    @Test("WAYLAND_DISPLAY set but unreachable: before the console, the app goes on without it and says why")
    func unreachable() throws {
        let app = try KeyboardApp(
            window: Window(), root: FocusNode(),
            configuration: configuration(["WAYLAND_DISPLAY": "wayland-rc-none", "XDG_RUNTIME_DIR": "/nonexistent-rc"]),
            platforms: [WaylandPlatform(), ConsolePlatform()])
        #expect(app.wayland == nil)
        #expect(app.platform is ConsolePlatform)
        // Not compiled for the compositor, the keymap is compiled when the keyboards come to open.
        #expect(app.layout != nil)
        #expect(app.layoutDescription.hasPrefix(app.layout?.name ?? "-"), "\(app.layoutDescription)")
        let note = try #require(app.platformFailures.first)
        #expect(note.contains("WAYLAND_DISPLAY=wayland-rc-none") && note.hasSuffix("; going on without the compositor"))
        #expect(app.inputNote?.hasPrefix(note) == true)
        #expect(app.platformsPassedOver.map(\.platform) == ["wayland"])
    }

    @Test("listed alone: an unreachable compositor fails naming the socket; none named fails naming the variable")
    func alone() {
        #expect {
            try KeyboardApp(
                window: Window(), root: FocusNode(),
                configuration: configuration(
                    ["WAYLAND_DISPLAY": "wayland-rc-none", "XDG_RUNTIME_DIR": "/nonexistent-rc"]),
                platforms: [WaylandPlatform()])
        } throws: { error in
            let error = error as? AppError
            return error?.code == .wayland && error?.message.contains("/nonexistent-rc/wayland-rc-none") == true
        }
        #expect {
            try KeyboardApp(
                window: Window(), root: FocusNode(), configuration: configuration([:]), platforms: [WaylandPlatform()])
        } throws: { error in
            (error as? AppError)?.message.contains("WAYLAND_DISPLAY is not set") == true
        }
    }

    @Test("the keyboards or the terminal asked for are the console's: the probe passes Wayland over")
    func inputAskedFor() {
        let wayland = WaylandPlatform()
        var configuration = configuration(["WAYLAND_DISPLAY": "wayland-1"])
        func reason() -> String? {
            wayland.probe(
                PlatformEnvironment(
                    variables: ["WAYLAND_DISPLAY": "wayland-1"], configuration: configuration, hasTerminal: true))
        }
        #expect(reason() == nil)
        configuration.input = .keyboards
        #expect(reason() == "the configuration asks for the keyboards")
        configuration.input = .terminal
        #expect(reason() == "the configuration asks for the terminal")
    }

    @Test("no compositor named: the probe passes it over with the reason, and nothing is connected")
    func probe() throws {
        let app = try KeyboardApp(
            window: Window(), root: FocusNode(), configuration: configuration([:]),
            platforms: [WaylandPlatform(), ConsolePlatform()])
        #expect(app.platformFailures.isEmpty)
        #expect(app.platformNote == "wayland: no compositor: WAYLAND_DISPLAY is not set")
        #expect(app.wayland == nil)
    }
}
