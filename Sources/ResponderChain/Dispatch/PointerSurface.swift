/// What a pointer or a finger lands on: the surface an output shows the window on, in its device
/// pixels. An output implements it (a display, a compositor's window); a pointer source is given the
/// output as its surface and maps every position through it, so that the app never connects the two
/// with closures of its own.
///
/// Today the window's coordinate space is the canvas's cells, and ``windowPoint(x:y:)`` divides by the
/// cell size; an output that draws in points maps to points, and no source changes.
@MainActor
public protocol PointerSurface: AnyObject {
    /// The surface's size in device pixels, that absolute positions (a touch screen, a tablet) are
    /// scaled to and the cursor is kept in; `nil` while unknown.
    var pointerArea: (width: Int, height: Int)? { get }
    /// A position in the surface's pixels as a point in the window's coordinate space.
    ///
    /// - Parameters:
    ///   - x: Pixels from the surface's left edge.
    ///   - y: Pixels from its top edge.
    /// - Returns: The point a hit test uses.
    func windowPoint(x: Double, y: Double) -> Point
    /// Shows the pointer's cursor at a position in the surface's pixels, or hides it (`nil`: a
    /// finger touched). A surface whose cursor someone else draws (a compositor) does nothing.
    ///
    /// - Parameter position: Where, or `nil` to hide it.
    func showCursor(at position: (x: Double, y: Double)?)
}

extension PointerSurface {
    /// Nothing: the compositor draws the cursor.
    ///
    /// - Parameter position: Unused.
    public func showCursor(at position: (x: Double, y: Double)?) {}
}
