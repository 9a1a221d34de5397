/// The root of a responder tree that takes keyboard input: it holds the first responder.
///
/// A window is the scene-like root UIKit calls `UIWindow`: one first responder per window. A
/// ``Dispatcher`` delivers keys to one window at a time.
///
/// ```swift
/// let window = Window(identifier: "main")
/// let editor = EditorView()
/// window.addChild(editor)
/// editor.becomeFirstResponder()
/// let dispatcher = Dispatcher(window: window)
/// ```
@MainActor
open class Window: Responder {
    // Read on every key; every access is a single load or store (no dynamic exclusivity check).
    /// The responder keys start from, or `nil` when none has become first responder.
    @exclusivity(unchecked) public private(set) var firstResponder: Responder?

    /// The window's reading direction. Key commands that allow automatic mirroring swap left and
    /// right in a right-to-left window.
    public var layoutDirection: LayoutDirection = .leftToRight {
        didSet {
            responderChainDidChange()
            focusLayoutDidChange()
        }
    }

    /// Counts changes to the tree and to focus properties (frames, visibility, groups); the focus
    /// system rebuilds its groups and tab loop when it moves. First-responder changes do not move it.
    // Read by every focus move (is the snapshot, the focused chain current?): no dynamic
    // exclusivity check, as for `generation` below.
    @exclusivity(unchecked) package private(set) var layoutGeneration: UInt64 = 0

    // Read on every key (the chain start): a single load, no dynamic exclusivity check (measured:
    // 150 instructions per key press).
    /// The responder at or above the focused item, set by the focus system: key commands and
    /// presses start there.
    @exclusivity(unchecked) package var focusedResponder: Responder? {
        didSet { if focusedResponder !== oldValue { responderChainDidChange(commandsChanged: false) } }
    }

    // Weak, although the side table it gives the focus system sends each retain and release of
    // it (one of each per focus key, as the press's owner) down the slow path, about 3 % of a
    // Tab: an unretained link cleared by the focus system's deinit was measured and dropped,
    // because a focus system released off the main actor waits for its deinit there, and the
    // link would hand out the dying object meanwhile.
    /// The focus system attached to this window, or `nil` when none is, or when it is gone.
    ///
    /// The window does not keep it alive: whoever made it does (``makeDispatcher(focusRoot:layout:)``
    /// hands it to its caller; `Application` keeps it for as long as the app runs). A focus system
    /// holds its window, so a strong link back would make a cycle.
    public package(set) weak var focusSystem: FocusSystem?

    /// Counts changes to the tree, key-command lists and the first responder; the dispatcher
    /// rebuilds its key-command index when it moves.
    @exclusivity(unchecked) package private(set) var generation: UInt64 = 0

    /// The keys that run exit commands (``Responder/onExitCommand(perform:)``): Escape, a remote
    /// control's Back (`KEY_BACK`) and Exit (`KEY_EXIT`) by default. A gamepad's B button acts as
    /// Back (``KeyCode/gamepadRole``), so it exits too. Keys are matched on
    /// ``Key/logicalKeyCode``, with any modifiers.
    public var exitKeys: Set<KeyCode> = Window.defaultExitKeys {
        didSet { exitKeyCodes = KeyCodeSet(exitKeys) }
    }
    /// ``exitKeys`` as every press asks it.
    @exclusivity(unchecked) final var exitKeyCodes = Window.defaultExitKeyCodes
    static let defaultExitKeys: Set<KeyCode> = [.escape, .back, .exit]
    static let defaultExitKeyCodes = KeyCodeSet(defaultExitKeys)

    /// Set while ``Responder/becomeFirstResponder()`` asks the current first responder to resign.
    package var isTransferringFirstResponder = false

    /// Who ``postAccessibilityNotification(_:)`` tells.
    var accessibilityObservers: [(id: UInt64, body: (AccessibilityNotification) -> Void)] = []
    var nextAccessibilityObserver: UInt64 = 0

    /// The dispatcher delivering keys to this window, or `nil` when none does, or when it is gone.
    ///
    /// The window does not keep it alive: whoever made it does (``makeDispatcher(focusRoot:layout:)``
    /// hands it to its caller; `Application` keeps it for as long as the app runs). A dispatcher
    /// holds its window, so a strong link back would make a cycle. The link is unretained: read it
    /// only while the dispatcher's owner still holds it (on the main actor, as the window is used),
    /// and do not keep what it returns beyond that owner.
    public package(set) var dispatcher: Dispatcher? {
        get { dispatcherLink?.target }
        set { dispatcherLink = newValue.map(UnownedRef.init) }
    }
    // Unretained (see UnownedRef); the dispatcher clears it in deinit.
    private var dispatcherLink: UnownedRef<Dispatcher>?

    /// Clears the dispatcher link if it points at `dispatcher` (which may be deinitializing).
    package func detachDispatcher(_ dispatcher: Dispatcher) {
        if dispatcherLink?.refers(to: dispatcher) == true { dispatcherLink = nil }
    }

    /// Creates a window with no children.
    ///
    /// - Parameter identifier: A name for traces.
    public override init(identifier: String? = nil) {
        super.init(identifier: identifier)
        setWindow(self)
    }

    isolated deinit {
        for child in children { child.setWindow(nil) }
    }

    /// Sends an action to the first responder able to perform it, starting at the first responder
    /// (or the window when there is none).
    ///
    /// - Parameters:
    ///   - action: The action.
    ///   - sender: Who sends it; ``ActionSender/application`` by default.
    /// - Returns: Whether some responder performed it.
    @discardableResult
    public final func sendAction(_ action: Action, sender: ActionSender = .application) -> Bool {
        guard let target = (firstResponder ?? self).target(forAction: action, sender: sender) else { return false }
        target.perform(action, sender: sender)
        return true
    }

    /// Counts changes to what the key-command index is built from: the tree, key-command lists,
    /// the direction. Moving focus or the first responder does not move it (the index is reused
    /// when the new chain has the same declarers).
    // Read when focus moves to another chain start (same declarers?): a single load.
    @exclusivity(unchecked) package private(set) var commandGeneration: UInt64 = 0

    package func responderChainDidChange(commandsChanged: Bool = true) {
        generation &+= 1
        if commandsChanged { commandGeneration &+= 1 }
    }

    package func setFirstResponder(_ responder: Responder?) {
        let previous = firstResponder
        guard previous !== responder else { return }
        firstResponder = responder
        responderChainDidChange(commandsChanged: false)
        dispatcher?.firstResponderDidChange(from: previous, to: responder)
        focusSystem?.firstResponderDidChange(to: responder)
        previous?.onFirstResponderChange?(false)
        responder?.onFirstResponderChange?(true)
    }

    package func focusLayoutDidChange() {
        layoutGeneration &+= 1
    }

    /// What is under every node when the window is drawn on a screen (UIKit's
    /// `UIWindow.backgroundColor`). White by default. Changing it redraws everything.
    public var backgroundColor: Color = .white {
        didSet { if backgroundColor != oldValue { setNeedsDisplayEverywhere() } }
    }

    /// The colour of the system's focus ring and of what a brand tints (UIKit's `tintColor`). A blue
    /// that reads on light and dark backgrounds by default. Changing it redraws everything.
    public var tintColor: Color = Color(red: 0.039, green: 0.424, blue: 1) {
        didSet { if tintColor != oldValue { setNeedsDisplayEverywhere() } }
    }

    /// Asks for the whole window to be drawn again at the next frame.
    public func setNeedsDisplayEverywhere() {
        guard isDisplayObserved else { return }
        displayInvalidations.removeAll()
        displayInvalidationsOverflowed = true
    }

    /// The devices of the input views shown in the window (an on-screen keyboard's own device):
    /// their keys go to the first responder's text input even while focus is on the input view's
    /// items. Set by the input view (``FocusNode/isInputView``).
    public var inputViewDevices: Set<DeviceID> = []

    /// How the user last reached the window.
    public enum Interaction: String, Hashable, Sendable {
        /// A key went down on a keyboard, a keypad, a remote or a gamepad.
        case keys
        /// A mouse, touchpad or tablet button went down.
        case mouse
        /// A finger touched the screen.
        case touch
    }

    /// How the user last reached the window (a key, a button or a finger going down; an input
    /// view's own keys do not count), or `nil` before any input. An on-screen keyboard shows
    /// itself for a field a finger focused, as GNOME's does, even where the seat reports a
    /// keyboard (a compositor's seat always does).
    public internal(set) var lastInteraction: Interaction?

    /// The smallest width and height, in the frames' units, an item a finger taps should have:
    /// ``PointerTargetReport`` and `keytrace --conflicts` flag smaller ones. `nil` (no check) by
    /// default, for frames in terminal cells; 44 (points, WCAG 2.5.5's target size) once a
    /// painter draws the window in points, unless set.
    public var minimumTargetSize: Double?

    /// Whether a painter shows the window (`Graphics`' `WindowPainter`): only then do nodes record
    /// what they need redrawn.
    package var isDisplayObserved = false {
        didSet { if !isDisplayObserved { displayInvalidations.removeAll() } }
    }
    /// The nodes that asked to be drawn again since the painter last took them, each with the part
    /// (`nil`: the whole node), in order.
    package private(set) var displayInvalidations: [(node: FocusNode, rect: Rect?)] = []
    /// Set when more than ``displayInvalidationLimit`` were recorded: the painter redraws everything.
    package private(set) var displayInvalidationsOverflowed = false
    /// The most invalidations kept between two frames.
    package static let displayInvalidationLimit = 4096

    package func noteNeedsDisplay(_ node: FocusNode, in rect: Rect?) {
        guard !displayInvalidationsOverflowed else { return }
        guard displayInvalidations.count < Self.displayInvalidationLimit else {
            displayInvalidations.removeAll()
            displayInvalidationsOverflowed = true
            return
        }
        displayInvalidations.append((node, rect))
    }

    /// Hands the recorded invalidations to the painter and forgets them.
    ///
    /// - Parameter body: Called with the invalidations, and whether they overflowed.
    package func takeDisplayInvalidations(_ body: ([(node: FocusNode, rect: Rect?)], Bool) -> Void) {
        body(displayInvalidations, displayInvalidationsOverflowed)
        displayInvalidations.removeAll(keepingCapacity: true)
        displayInvalidationsOverflowed = false
    }

    package func subtreeDidLeave(_ root: Responder) {
        responderChainDidChange()
        focusLayoutDidChange()
        if let first = firstResponder, first.window !== self {
            setFirstResponder(nil)
        }
        if let focused = focusedResponder, focused.window !== self {
            focusedResponder = nil
        }
        dispatcher?.respondersDidLeaveTree(root)
        focusSystem?.treeDidChange()
    }
}
