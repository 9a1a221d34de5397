/// An in-app pasteboard: where a ``TextInputNode``'s copy and cut put text and where its paste
/// takes it from, as UIKit's `UIPasteboard`.
///
/// It lives in the process only: a kiosk on the console has no clipboard to share, and a
/// terminal's clipboard reaches the app as a bracketed paste (``TextInputResponder/insertText(_:)``)
/// instead. Fields use ``general`` unless given their own (``TextInputNode/pasteboard``); a test
/// can set ``general`` to a fresh pasteboard, or give its fields one.
///
/// ```swift
/// let pasteboard = Pasteboard()
/// plateField.pasteboard = pasteboard
/// pasteboard.string = "AB 123"
/// ```
@MainActor
public final class Pasteboard {
    /// The pasteboard fields use unless they have their own. Settable, so that tests can start
    /// from an empty one.
    public static var general = Pasteboard()

    /// The text on the pasteboard, or `nil` when it is empty.
    public var string: String? {
        didSet { changeCount &+= 1 }
    }

    /// How many times ``string`` was set: a way to see that something was copied since you last
    /// looked, as UIKit's `changeCount`.
    public private(set) var changeCount = 0

    /// Whether there is text to paste: ``string`` is set and not empty.
    public var hasStrings: Bool {
        guard let string else { return false }
        return !string.isEmpty
    }

    /// Creates an empty pasteboard.
    public init() {}
}
