import Graphics
import ResponderChain
import ResponderChainTesting

@testable import KioskExample

/// The kiosk's graphical face on a screen of a given size in points, run by a harness as the app
/// runs it: the real dispatcher and focus system, the on-screen keyboard typing through the
/// dispatcher as a device of its own, and no keyboard attached unless asked.
@MainActor
struct GraphicalKiosk {
    let kiosk: Kiosk
    let app: AppHarness
    let keyboard: OnScreenKeyboard
    let device: DeviceID

    init(size: Size = Size(width: 1280, height: 800), rightToLeft: Bool = false, hardwareKeyboard: Bool = false) {
        kiosk = Kiosk()
        kiosk.useGraphicalFace(size: size, language: rightToLeft ? .hebrew : .english)
        app = AppHarness(window: kiosk.window, root: kiosk.root)
        kiosk.activeKeyCommands = { [app] in app.dispatcher.discoverableKeyCommands() }
        device = app.dispatcher.makeDeviceID()
        keyboard = OnScreenKeyboard(
            layout: USKeyboardLayout(), sink: app.dispatcher, device: device, theme: KioskAppearance.riverside)
        keyboard.hasHardwareKeyboard = { hardwareKeyboard }
        kiosk.attachKeyboard(keyboard, focusSystem: app.focusSystem)
    }

    /// The key of the keyboard's page shown that types or does `name` (`key-a`, `key-shift`).
    func key(_ name: String) -> KeyNode? {
        keyboard.rows.joined().first { $0.identifier == "key-" + name }
    }

    /// Taps the middle of a node, as a finger does.
    func tap(_ node: FocusNode) {
        app.pointer.tap(at: Point(x: node.frame.midX, y: node.frame.midY))
    }

    /// Every identifier of a tree, depth first, with its focus group and its parent's identifier.
    static func shape(of root: Responder, skipping skipped: Responder? = nil) -> [String] {
        var lines: [String] = []
        func visit(_ responder: Responder, parent: String) {
            if responder === skipped { return }
            let name = responder.identifier ?? "?"
            let group = (responder as? FocusNode)?.focusGroupIdentifier ?? "-"
            lines.append("\(parent)/\(name) group \(group)")
            for child in responder.children { visit(child, parent: name) }
        }
        visit(root, parent: "")
        return lines
    }
}
