public import DispatchTrace
public import Inspection
public import ResponderChain
public import TerminalCanvas

/// A running app's screen as `keytrace --attach` draws it: the app's last tree snapshot rebuilt
/// as a scene, with a focus system and dispatcher of its own, in the same ``LiveView`` as the
/// demo; every trace event the app sends goes into its trace pane.
///
/// The mirror follows the app and nothing else: focus goes to the item a snapshot or a `focus`
/// event names; no key ever reaches its dispatcher. A new snapshot replaces the scene and keeps
/// the trace pane's history.
@MainActor
public final class AttachMirror {
    /// The app's hello, once it came.
    public private(set) var hello: InspectionMessage.Hello?
    /// The last snapshot.
    public private(set) var snapshot: TreeSnapshot?
    /// The view of the last snapshot; `nil` before the first.
    public private(set) var view: LiveView?
    /// Whether `stage` and `keyCommandPassedOver` events go into the trace pane.
    public var explain: Bool
    /// How many lines the app dropped because keytrace read too slowly, since it attached.
    public private(set) var missed = 0
    /// Counts every change worth a new frame.
    public private(set) var generation = 0
    /// Whether the tab loop is numbered (F2).
    public var showsTabLoop = false {
        didSet { changed() }
    }
    /// Whether each item's focus group is named (F3).
    public var showsGroups = false {
        didSet { changed() }
    }
    /// What to show while the app has sent nothing, in place of "waiting for the app's hello":
    /// that it does not answer, and why (keytrace sets it after a few seconds of silence).
    public var waitingNote: String? {
        didSet { changed() }
    }
    /// Events that came before the first snapshot (the `session` event).
    private var early: [TraceEvent] = []
    private var scene: Scene?

    /// Creates an empty mirror; it shows the app from its first snapshot on.
    ///
    /// - Parameter explain: Whether stage decisions show in the trace pane.
    public init(explain: Bool = true) {
        self.explain = explain
    }

    /// The mirror's session: the rebuilt scene's focus system, dispatcher and history.
    public var session: TraceSession? { view?.session }

    /// Applies a line from the app.
    ///
    /// - Parameter message: The message.
    /// - Throws: `SceneError` when a snapshot's tree cannot be rebuilt.
    public func apply(_ message: InspectionMessage) throws(SceneError) {
        switch message {
        case .hello(let hello):
            self.hello = hello
        case .snapshot(let snapshot):
            try show(snapshot)
        case .trace(let event):
            record(event)
        case .dropped(let drop):
            missed = drop.total
        case .refused:
            return
        }
        updateStatus()
        changed()
    }

    /// The status line's note: the app, its pid and input, and the events missed.
    public var statusNote: String {
        guard let hello else { return "attaching" }
        return "\(hello.app) (pid \(hello.pid)), input \(hello.input)"
            + (missed > 0 ? ", missed \(missed) event\(missed == 1 ? "" : "s")" : "")
    }

    /// The frame for a terminal of this size: the live view once a snapshot came, a line saying
    /// what keytrace waits for before.
    ///
    /// - Parameters:
    ///   - columns: The terminal's width.
    ///   - rows: Its height.
    /// - Returns: The drawn canvas.
    public func canvas(columns: Int, rows: Int) -> Canvas {
        if let view { return view.canvas(columns: columns, rows: rows) }
        var canvas = Canvas(columns: columns, rows: rows)
        let waiting =
            hello.map { "attached to \($0.app) (pid \($0.pid)); waiting for its tree" }
            ?? waitingNote ?? "waiting for the app's hello"
        canvas.wrapped(waiting.escapingControlCharacters(), 0, 0, width: columns, .heading)
        return canvas
    }

    /// The frame's lines (``LiveView/render(columns:rows:escapes:)``).
    ///
    /// - Parameters:
    ///   - columns: The terminal's width.
    ///   - rows: Its height.
    ///   - escapes: Whether to include colour escapes.
    /// - Returns: One string per row.
    public func render(columns: Int, rows: Int, escapes: Bool = true) -> [String] {
        canvas(columns: columns, rows: rows).lines(escapes: escapes)
    }

    private func changed() {
        generation &+= 1
        view?.showsTabLoop = showsTabLoop
        view?.showsGroups = showsGroups
    }

    private func updateStatus() {
        view?.inputNote = statusNote
        if let hello { view?.layoutName = hello.layout }
    }

    /// Rebuilds the scene from a snapshot, puts focus where the app has it, and carries the
    /// trace pane's history over.
    private func show(_ snapshot: TreeSnapshot) throws(SceneError) {
        let scene = try snapshot.makeScene()
        let session = TraceSession(scene: scene, layout: USKeyboardLayout()) { _ in }
        // Nothing the mirror does itself (initial focus, following the snapshot) is history.
        session.start(input: hello?.input ?? "none", layout: hello?.layout ?? "none")
        session.follow(snapshot, in: scene)
        session.keepsHistory = true
        for event in self.session?.history ?? early { session.emit(event) }
        early = []
        let view = LiveView(session: session, scene: scene, input: statusNote, layout: hello?.layout ?? "none")
        view.showsKeyboardState = false
        // The replaced scene's session stops following its dispatcher before it goes.
        self.view?.session.stop()
        self.view = view
        self.scene = scene
        self.snapshot = snapshot
    }

    /// Shows an event in the trace pane, and moves the mirror's focus (or first responder) to
    /// the item a `focus` (or `firstResponder`) event names.
    private func record(_ event: TraceEvent) {
        guard explain || !Keytrace.isExplanation(.trace(event)) else { return }
        guard let session, let scene else {
            early.append(event)
            if early.count > 500 { early.removeFirst(early.count - 500) }
            return
        }
        session.emit(event)
        session.keepsHistory = false
        defer { session.keepsHistory = true }
        switch event.kind {
        case .focus(_, let to?, _, _, _):
            if let node = scene.nodes[to] { session.focusSystem.requestFocus(on: node) }
        case .firstResponder(_, let to?):
            if let node = scene.nodes[to], scene.window.firstResponder !== node { node.becomeFirstResponder() }
        default:
            break
        }
    }
}

extension TraceSession {
    /// Puts focus where a snapshot says the app has it: inside its modal scope, on its focused
    /// item, with its first responder.
    ///
    /// - Parameters:
    ///   - snapshot: The app's snapshot.
    ///   - scene: The scene rebuilt from it, which this session traces.
    func follow(_ snapshot: TreeSnapshot, in scene: Scene) {
        if let modal = snapshot.modal, let node = scene.nodes[modal] { focusSystem.presentModal(node) }
        if let focused = snapshot.focused, let node = scene.nodes[focused] { focusSystem.requestFocus(on: node) }
        if let responder = snapshot.firstResponder, let node = scene.nodes[responder],
            scene.window.firstResponder !== node
        {
            node.becomeFirstResponder()
        }
    }
}
