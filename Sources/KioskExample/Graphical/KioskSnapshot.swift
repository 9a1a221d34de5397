import Graphics
import ResponderChain

/// What `--snapshot` draws: one screen of the graphical face, at a size and a scale, into a PNG
/// file; how golden images are made and how the face is looked at without a screen.
package struct KioskSnapshotRequest: Sendable, Equatable {
    /// The screens a snapshot can show.
    package enum Screen: String, Sendable, CaseIterable {
        /// The tiles, focus on the first (lifted).
        case home
        /// The form, a name typed, focus in the name field (the keyboard over it with `--keyboard`).
        case checkin
        /// The form, a name typed, focus in the PIN (its number pad with `--keyboard`).
        case pin
        /// The form filled in and its confirmation dialog.
        case dialog
        /// The directory, searched, focus on a row.
        case directory
        /// The help over the home screen.
        case help
    }

    /// The PNG file written.
    package var path: String
    /// The screen's size in points.
    package var size: Size
    /// Device pixels per point.
    package var scale: Double
    /// The screen shown.
    package var screen: Screen
    /// Hebrew words, the screen mirrored.
    package var rightToLeft: Bool
    /// Whether no keyboard is attached, so that the on-screen keyboard shows for a text field.
    package var showsKeyboard: Bool

    /// A request.
    ///
    /// - Parameters:
    ///   - path: The PNG file.
    ///   - size: The size in points.
    ///   - scale: Device pixels per point.
    ///   - screen: The screen.
    ///   - rightToLeft: Hebrew, mirrored.
    ///   - showsKeyboard: The on-screen keyboard for a text field.
    package init(
        path: String, size: Size = Size(width: 1280, height: 800), scale: Double = 1, screen: Screen = .home,
        rightToLeft: Bool = false, showsKeyboard: Bool = false
    ) {
        self.path = path
        self.size = size
        self.scale = scale
        self.screen = screen
        self.rightToLeft = rightToLeft
        self.showsKeyboard = showsKeyboard
    }

    /// Reads `WxH` or `WxH@SCALE` in pixels (`1920x1080@2` is 960x540 points at scale 2).
    ///
    /// - Parameter text: The text.
    /// - Returns: The size in points and the scale, or `nil` when the text is not one.
    package static func parseSize(_ text: String) -> (size: Size, scale: Double)? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let scale = parts.count == 2 ? Double(parts[1]) : 1
        let sides = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard let scale, scale >= 1, scale <= 4, sides.count == 2, let width = Int(sides[0]),
            let height = Int(sides[1]),
            width >= 320, height >= 240, width <= 7680, height <= 4320
        else { return nil }
        return (Size(width: Double(width) / scale, height: Double(height) / scale), scale)
    }
}

/// The kiosk put in the state a snapshot shows: its graphical face, its own dispatcher and focus
/// system, the on-screen keyboard, and the screen staged through the kiosk's own behaviour.
@MainActor package final class KioskStage {
    let kiosk: Kiosk
    let dispatcher: Dispatcher
    let focusSystem: FocusSystem
    let keyboard: OnScreenKeyboard
    private let device: DeviceID

    /// The window to paint.
    package var window: Window { kiosk.window }

    /// Stages a screen.
    ///
    /// - Parameter request: What to show.
    package init(_ request: KioskSnapshotRequest) {
        kiosk = Kiosk()
        kiosk.useGraphicalFace(size: request.size, language: request.rightToLeft ? .hebrew : .english)
        (dispatcher, focusSystem) = kiosk.window.makeDispatcher(focusRoot: kiosk.root)
        kiosk.activeKeyCommands = { [dispatcher] in dispatcher.discoverableKeyCommands() }
        device = dispatcher.makeDeviceID()
        keyboard = OnScreenKeyboard(
            layout: USKeyboardLayout(), sink: dispatcher, device: dispatcher.makeDeviceID(),
            theme: KioskAppearance.riverside)
        let attached = !request.showsKeyboard
        keyboard.hasHardwareKeyboard = { attached }
        kiosk.attachKeyboard(keyboard, focusSystem: focusSystem)
        focusSystem.updateFocusIfNeeded()
        stage(request)
    }

    private func settle() {
        kiosk.window.updateFocusAfterInput()
        focusSystem.updateFocusIfNeeded()
    }

    private func focus(_ node: FocusNode) {
        _ = focusSystem.requestFocus(on: node)
        settle()
    }

    /// Presses and releases a key of the stage's own device.
    private func press(_ code: KeyCode) {
        dispatcher.receive(.key(KeyEvent(code, .down, device: device, timestamp: 0)))
        dispatcher.receive(.key(KeyEvent(code, .up, device: device, timestamp: 0)))
        settle()
    }

    /// Types text into the first responder, as a paste from the stage's own device.
    private func type(_ text: String) {
        dispatcher.receive(.text(text, device: device, timestamp: 0))
        settle()
    }

    private func stage(_ request: KioskSnapshotRequest) {
        let hebrew = request.rightToLeft
        switch request.screen {
        case .home:
            settle()
        case .checkin:
            kiosk.show(.checkIn)
            focus(kiosk.nameField)
            type(hebrew ? "עדה לאבלייס" : "Ada Lovelace")
        case .pin:
            kiosk.show(.checkIn)
            focus(kiosk.nameField)
            type(hebrew ? "עדה לאבלייס" : "Ada Lovelace")
            focus(kiosk.pinField)
            type("47")
        case .dialog:
            // The form filled in and sent with Return, as a person would; the kiosk asks to confirm.
            kiosk.show(.checkIn)
            focus(kiosk.nameField)
            type(hebrew ? "עדה לאבלייס" : "Ada Lovelace")
            focus(kiosk.pinField)
            type("4721")
            focus(kiosk.consent)
            press(.space)
            focus(kiosk.submit)
            press(.return)
        case .directory:
            kiosk.show(.directory)
            focus(kiosk.search)
            type("an")
            if !request.showsKeyboard, let row = kiosk.rows.filter({ !$0.isHidden }).dropFirst(2).first {
                focus(row)
            }
        case .help:
            settle()
            kiosk.showsHelp = true
            settle()
        }
    }
}
