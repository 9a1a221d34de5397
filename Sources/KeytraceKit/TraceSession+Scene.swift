public import DispatchTrace
public import ResponderChain

extension TraceSession {
    /// Loads a scene with a dispatcher and focus system of its own; ``TraceSession/start(input:layout:note:t:)``
    /// gives it initial focus.
    ///
    /// - Parameters:
    ///   - scene: The scene.
    ///   - layout: The keyboard layout (xkb gives keysym names).
    ///   - rightToLeft: Whether to force a right-to-left window (`--rtl`).
    ///   - explain: Whether stage decisions are reported.
    ///   - onEvent: Receives the events.
    public convenience init(
        scene: Scene, layout: any KeyboardLayout, rightToLeft: Bool = false, explain: Bool = false,
        onEvent: @escaping (TraceEvent) -> Void
    ) {
        if rightToLeft { scene.window.layoutDirection = .rightToLeft }
        let dispatcher = Dispatcher(window: scene.window, layout: layout)
        let focusSystem = FocusSystem(window: scene.window, root: scene.root)
        dispatcher.systemKeyHandler = focusSystem
        self.init(scene: scene, dispatcher: dispatcher, focusSystem: focusSystem, explain: explain, onEvent: onEvent)
    }

    /// Traces a scene whose dispatcher and focus system were made elsewhere (by a `KeyboardApp`
    /// in LinuxKeyboard); the scene's navigation settings and global commands are applied to them.
    ///
    /// - Parameters:
    ///   - scene: The scene.
    ///   - dispatcher: The dispatcher of the scene's window.
    ///   - focusSystem: The focus system of the scene's root.
    ///   - explain: Whether stage decisions are reported.
    ///   - onEvent: Receives the events.
    public convenience init(
        scene: Scene, dispatcher: Dispatcher, focusSystem: FocusSystem, explain: Bool = false,
        onEvent: @escaping (TraceEvent) -> Void
    ) {
        focusSystem.navigationStyle = scene.navigationStyle
        focusSystem.fullKeyboardAccess = scene.fullKeyboardAccess
        focusSystem.selectKeys = scene.selectKeys
        dispatcher.globalKeyCommands = scene.globalKeyCommands
        self.init(
            name: scene.name, window: scene.window, dispatcher: dispatcher, focusSystem: focusSystem, explain: explain,
            onEvent: onEvent)
    }
}
