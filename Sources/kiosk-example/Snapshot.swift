import CairoGraphics
import Graphics
import KioskExample
import PixelCanvas
import ResponderChain

/// Draws a staged screen of the kiosk's graphical face with the painter a screen uses, into a PNG
/// file (`--snapshot`).
///
/// - Parameters:
///   - stage: The kiosk in the state to draw.
///   - request: The file, the size and the scale.
/// - Throws: ``SnapshotError`` when an image could not be drawn; the PNG writer's error when the
///   file cannot be written.
@MainActor func drawSnapshot(_ stage: KioskStage, _ request: KioskSnapshotRequest) throws {
    let painter = WindowPainter(window: stage.window, size: request.size)
    let renderer = CairoRenderer()
    let image = renderer.image(size: request.size, scale: request.scale, background: nil) { context in
        painter.paint(painter.takeDamage(), in: context)
    }
    if let problem = renderer.problems.first { throw SnapshotError(message: problem.message) }
    try image.writePNG(to: request.path)
}

/// Why a snapshot failed.
struct SnapshotError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
