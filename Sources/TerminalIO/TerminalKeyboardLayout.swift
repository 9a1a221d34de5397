public import ResponderChain

/// The layout for keys read from a terminal. A terminal sends characters it has already typed
/// on its own layout; ``TerminalKeyDecoder`` puts each on its US key position (so key commands
/// match) with the text itself (`KeyEvent/text`), and this layout only maps US positions back
/// to US characters for what the text does not cover (a key's characters without modifiers).
/// The system's layout (`de`, `fr`) is never applied to terminal input, so `z` on a German
/// terminal stays `z`, and `é` or `ф` arrive as typed. `Application` uses it for terminal input.
public struct TerminalKeyboardLayout: KeyboardLayout {
    private let us = USKeyboardLayout()

    /// Creates the layout.
    public init() {}

    /// `terminal`.
    public var name: String { "terminal" }

    /// The US layout's characters for the key position.
    ///
    /// - Parameters:
    ///   - code: The key.
    ///   - state: Modifiers and locks.
    /// - Returns: The characters.
    public func characters(for code: KeyCode, in state: LayoutState) -> String {
        us.characters(for: code, in: state)
    }
}
