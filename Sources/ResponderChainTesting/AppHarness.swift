import ResponderChain

/// A window wired as `Application` runs it, for tests: a dispatcher with the focus system as its
/// system behaviour, Ctrl-C reserved, initial focus given, a keyboard to type with, and focus
/// brought up to date after every event it sends, as the app does after every batch of input.
///
/// ```swift
/// let window = Window()
/// let root = FocusNode(identifier: "root")
/// window.addChild(root)
/// // … build the tree …
/// let app = AppHarness(window: window, root: root)
/// app.conflictReport.expectNoConflicts()
/// app.pointerTargets.expectNoConflicts()
/// app.keyboard.typeText("KI 42")
/// app.keyboard.tap("ctrl+p")
/// #expect(app.focusSystem.focusedItem === payButton)
/// ```
///
/// The dispatcher and the focus system come from `Window.makeDispatcher(focusRoot:layout:)`, the
/// call `Application` makes, so a test and the app cannot wire them differently. Build the tree
/// first: the harness gives initial focus when it is made, as `Application.start()` does; a
/// tree built later gets it from `focusSystem.updateFocusIfNeeded()`.
@MainActor
public final class AppHarness {
    /// The window.
    public let window: Window
    /// The root of the focus tree.
    public let root: any FocusEnvironment
    /// The dispatcher keys go to.
    public let dispatcher: Dispatcher
    /// The focus system: initial focus, Tab, the arrows and the select keys.
    public let focusSystem: FocusSystem
    /// A keyboard typing into ``dispatcher``; focus is brought up to date after each of its
    /// events (`Window.updateFocusAfterInput()`).
    public let keyboard: VirtualKeyboard
    /// A touch screen and mouse tapping into ``dispatcher``, through the app's one hit test;
    /// focus is brought up to date after each of its events.
    public let pointer: VirtualPointer
    /// How many times the quit command was typed: the app would have stopped at the first.
    public private(set) var quitCount = 0

    /// Makes the dispatcher and the focus system, reserves the quit command and gives initial
    /// focus.
    ///
    /// - Parameters:
    ///   - window: The window, with its tree built. It must not have a dispatcher yet.
    ///   - root: The root of the focus tree, in the window's tree.
    ///   - layout: The keyboard layout; `USKeyboardLayout` by default (a LinuxKeyboard test may
    ///     pass an `XKBKeyboardLayout`).
    ///   - quitCommand: The command reserved above every key command to stop the app, as in
    ///     `Application.Configuration`: Ctrl-C by default; `nil` for none. Typing it counts in
    ///     ``quitCount``.
    public init(
        window: Window, root: any FocusEnvironment, layout: any KeyboardLayout = USKeyboardLayout(),
        quitCommand: KeyCommand? = .standardQuit
    ) {
        self.window = window
        self.root = root
        (dispatcher, focusSystem) = window.makeDispatcher(focusRoot: root, layout: layout)
        keyboard = VirtualKeyboard(dispatcher)
        keyboard.afterEvent = { [unowned window] in window.updateFocusAfterInput() }
        pointer = VirtualPointer(dispatcher)
        pointer.afterEvent = { [unowned window] in window.updateFocusAfterInput() }
        if let quitCommand {
            dispatcher.reserve(ReservedShortcut(quitCommand) { [weak self] _ in self?.quitCount += 1 })
        }
        focusSystem.updateFocusIfNeeded()
    }

    /// The key-command report at the current focus: every command of the active chain with its
    /// status (`expectNoConflicts()` fails a test on a command that can never fire).
    public var conflictReport: KeyCommandConflictReport { KeyCommandConflictReport(dispatcher) }

    /// Where taps and clicks land now, and what they run (`expectNoConflicts()` fails a test on
    /// an item that no tap can reach).
    public var pointerTargets: PointerTargetReport { PointerTargetReport(focusSystem) }

    /// The key commands a help overlay would list at the current focus, grouped by who declares
    /// them (`Dispatcher.discoverableKeyCommands()`).
    ///
    /// - Returns: The groups.
    public func discoverableKeyCommands() -> [DiscoverableKeyCommandGroup] {
        dispatcher.discoverableKeyCommands()
    }
}
