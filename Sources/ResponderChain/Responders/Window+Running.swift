extension Window {
    /// Makes the dispatcher and the focus system that run this window, wired as an app runs them:
    /// the focus system is the dispatcher's system behaviour, so Tab, Shift-Tab, the arrows and the
    /// select keys reach it after priority key commands and text input, and before other key
    /// commands (<doc:DispatchOrder>).
    ///
    /// `Application` (in AppRuntime, under every `KeyboardApp`) and `AppHarness` (in
    /// ResponderChainTesting) make theirs here; an app that feeds keys from an input source of its
    /// own does the same:
    /// ```swift
    /// let (dispatcher, focus) = window.makeDispatcher(focusRoot: root)
    /// focus.updateFocusIfNeeded()              // initial focus, once the tree is built
    /// // for each batch of input:
    /// dispatcher.handle(event)
    /// window.updateFocusAfterInput()           // then draw
    /// ```
    /// Initial focus is not given here, so that the tree may still be built and observers added
    /// before it: call ``FocusSystem/updateFocusIfNeeded()`` when the window is ready. The window
    /// keeps neither object (see ``dispatcher`` and ``focusSystem``): keep both for as long as the
    /// window runs.
    ///
    /// - Parameters:
    ///   - root: The root of the focus tree, in this window's tree.
    ///   - layout: The keyboard layout; ``USKeyboardLayout`` by default.
    /// - Returns: The dispatcher and the focus system.
    /// - Precondition: The window has no dispatcher yet.
    public func makeDispatcher(focusRoot root: any FocusEnvironment, layout: any KeyboardLayout = USKeyboardLayout())
        -> (dispatcher: Dispatcher, focusSystem: FocusSystem)
    {
        let dispatcher = Dispatcher(window: self, layout: layout)
        let focusSystem = FocusSystem(window: self, root: root)
        dispatcher.systemKeyHandler = focusSystem
        return (dispatcher, focusSystem)
    }

    /// Brings focus up to date after a batch of input, before the window is drawn, as UIKit does
    /// at the end of a run-loop turn. While an item has focus, focus leaves an item the batch hid,
    /// disabled or removed, and requests made with ``FocusSystem/setNeedsFocusUpdate(on:)`` are
    /// carried out. A window with nothing focused (not given initial focus yet, or cleared on
    /// purpose with ``FocusSystem/clearFocus()``) is left as it is.
    ///
    /// `Application` calls it after every batch of input; `AppHarness` after every event its
    /// keyboard sends. Does nothing without a ``focusSystem``.
    public func updateFocusAfterInput() {
        guard let focusSystem, focusSystem.focusedItem != nil else { return }
        focusSystem.updateFocusIfNeeded()
    }
}

extension KeyCommand {
    /// The command that stops an app: Ctrl-C, action `quit`, titled "Quit". `Application`
    /// reserves it by default (above every key command) and `AppHarness` does the same, so that
    /// a test sees the conflicts and the help an app shows.
    public static let standardQuit = KeyCommand("c", modifierFlags: .control, action: "quit", title: "Quit")
}
