public import ResponderChain

/// Text in a rectangle: a title, a hint, a price. Not focusable; a narrator reads it as its
/// accessibility label unless one is set.
///
/// ```swift
/// let title = LabelNode("Riverside Clinic", style: TextStyle(font: Font(size: 48, weight: .bold)))
/// title.frame = Rect(x: 48, y: 32, width: 800, height: 64)
/// ```
open class LabelNode: FocusNode {
    /// The text. Setting it redraws the label.
    public var text: String {
        didSet { if text != oldValue { setNeedsDisplay() } }
    }
    /// How it is set. Setting it redraws the label.
    public var style: TextStyle {
        didSet { if style != oldValue { setNeedsDisplay() } }
    }

    /// Creates a label.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - style: How it is set.
    ///   - identifier: The node's name for traces.
    ///   - frame: Where, in points.
    public init(_ text: String, style: TextStyle, identifier: String? = nil, frame: Rect = .zero) {
        self.text = text
        self.style = style
        super.init(identifier: identifier, frame: frame)
    }

    /// The text, unless set otherwise.
    open override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? text }
        set { super.accessibilityLabel = newValue }
    }

    /// The background, if any, then the text.
    open override func draw(in context: any GraphicsContext, state: DrawingState) {
        super.draw(in: context, state: state)
        var style = self.style
        if !state.isEnabled { style.color = style.color.opacity(style.color.alpha * 0.45) }
        context.draw(text, in: frame, style: style)
    }
}

/// An image in a rectangle: a logo, a photo, an icon.
open class ImageNode: FocusNode {
    /// The image. Setting it redraws the node.
    public var image: ImageSource {
        didSet { if image != oldValue { setNeedsDisplay() } }
    }
    /// How it fills the frame. Setting it redraws the node.
    public var contentMode: ImageContentMode {
        didSet { if contentMode != oldValue { setNeedsDisplay() } }
    }

    /// Creates an image node.
    ///
    /// - Parameters:
    ///   - image: The image.
    ///   - contentMode: How it fills the frame; whole and centred by default.
    ///   - identifier: The node's name for traces.
    ///   - frame: Where, in points.
    public init(
        _ image: ImageSource, contentMode: ImageContentMode = .fit, identifier: String? = nil, frame: Rect = .zero
    ) {
        self.image = image
        self.contentMode = contentMode
        super.init(identifier: identifier, frame: frame)
    }

    /// The background, if any, then the image.
    open override func draw(in context: any GraphicsContext, state: DrawingState) {
        super.draw(in: context, state: state)
        context.draw(image, in: frame, mode: contentMode)
    }
}
