/// Carries out commands on one ``VirtualPointer``: the default extent, and which button `release` lifts.
final class PointerRunner {
    let pointer: VirtualPointer
    let extent: (width: UInt32, height: UInt32)
    private var lastPressed: PointerButton?

    init(pointer: VirtualPointer, extent: (width: UInt32, height: UInt32)) {
        self.pointer = pointer
        self.extent = extent
    }

    /// Runs the commands in order; each request is framed and round-tripped before the next.
    ///
    /// - Throws: ``ConnectionError`` when the compositor went away.
    func run(_ commands: [PointerCommand]) throws(ConnectionError) {
        for command in commands {
            try run(command)
        }
    }

    private func run(_ command: PointerCommand) throws(ConnectionError) {
        switch command {
        case let .moveAbsolute(x, y, width, height):
            try pointer.moveAbsolute(x: x, y: y, width: width ?? extent.width, height: height ?? extent.height)
        case let .moveRelative(dx, dy):
            try pointer.moveRelative(dx: dx, dy: dy)
        case let .press(button):
            try pointer.button(button.code, pressed: true)
            lastPressed = button
        case let .release(button):
            let button = button ?? lastPressed ?? .left
            try pointer.button(button.code, pressed: false)
            if button == lastPressed { lastPressed = nil }
        case let .click(x, y, button):
            try pointer.moveAbsolute(x: x, y: y, width: extent.width, height: extent.height)
            try pointer.button(button.code, pressed: true)
            try pointer.button(button.code, pressed: false)
        case let .sleep(milliseconds):
            ProcessIO.sleep(milliseconds: milliseconds)
        }
    }

}
