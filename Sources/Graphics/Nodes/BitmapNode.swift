public import ResponderChain

/// A node showing pixels the app makes itself: a video frame, a camera's picture, a chart its own
/// renderer drew. Set ``bitmap`` for each new frame: only the node's frame is redrawn, and the
/// output draws it when the screen is ready for a frame (a compositor's frame callback, a
/// display's page flip); frames made faster than that are not queued: the newest is shown.
///
/// ```swift
/// let video = BitmapNode(identifier: "camera", frame: Rect(x: 40, y: 120, width: 640, height: 360))
/// root.addChild(video)
/// decoder.onFrame = { pixels in
///     video.bitmap = Bitmap(width: 1280, height: 720, pixels: pixels)
///     app.setNeedsFrame()                 // from a task or a timer: draw at the next frame
/// }
/// ```
open class BitmapNode: FocusNode {
    /// The pixels shown; `nil` for none (the background, if any). Setting it redraws the node.
    public var bitmap: Bitmap? {
        didSet { setNeedsDisplay() }
    }
    /// How the pixels fill the frame: whole and centred by default.
    public var contentMode: ImageContentMode = .fit {
        didSet { if contentMode != oldValue { setNeedsDisplay() } }
    }

    /// The background, if any, then the pixels.
    open override func draw(in context: any GraphicsContext, state: DrawingState) {
        super.draw(in: context, state: state)
        if let bitmap { context.draw(bitmap, in: frame, mode: contentMode) }
    }
}
