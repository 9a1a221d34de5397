import ResponderChain

/// A container of the kiosk's tree (the root, the menu, the content area, a screen, the dialog, the
/// help): a plain focus node whose drawing in the graphical face is given by the kiosk, so that the
/// tree, its identifiers and its groups are the same in both faces. In a terminal it draws nothing.
@MainActor final class Surface: FocusNode {
    /// Draws the container, under its children; `nil` draws nothing.
    var drawing: ((any GraphicsContext, DrawingState) -> Void)?

    /// A container.
    ///
    /// - Parameter identifier: Its name in traces.
    init(identifier: String) {
        super.init(identifier: identifier)
    }

    override func draw(in context: any GraphicsContext, state: DrawingState) {
        drawing?(context, state)
    }
}
