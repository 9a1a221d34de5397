/// A single-line text field: a focus node that edits text, forms its own focus group, can become
/// first responder, and takes its editing keys before the focus system (see
/// ``TextInputResponder``).
///
/// It keeps a cursor and a selection over the text's characters and edits as text fields do on
/// Linux and in UIKit:
///
/// | Keys | Edit |
/// |---|---|
/// | characters | insert at the cursor, replacing the selection, up to ``maximumLength`` |
/// | Left, Right | move the cursor (to the selection's edge first); with Ctrl, by word |
/// | Home, End | to the start or the end |
/// | Up, Down | to the start or the end, as in UIKit's single-line fields (not while an ``inputView`` is shown: then they move focus to it and back) |
/// | Shift with any move | extend the selection |
/// | Backspace, Delete | delete the selection, or the character before or after the cursor; with Ctrl, the word |
/// | Return, keypad Enter | run the ``onSubmit(perform:)`` action, when there is one |
/// | Ctrl+A | select all (``selectAll()``), when there is text |
/// | Ctrl+C, Ctrl+X | copy or cut the selection to ``pasteboard``, when there is one; never in a secure field (an app's reserved Ctrl-C quit, `KeyboardApp`'s default, wins over copy) |
/// | Ctrl+V | paste from ``pasteboard`` (as ``insertText(_:)``), when it holds text |
/// | Ctrl+Z | undo (``undo()``), when there is something to undo |
/// | Ctrl+Shift+Z, Ctrl+Y | redo (``redo()``), when there is something to redo |
///
/// Held editing keys repeat. The field takes these keys before the focus system and before key
/// commands, as UIKit's text system does: a window's Up or Down key command does not fire while a
/// field is first responder, no ancestor sees those presses, and the focus system does not move
/// out of the field with an arrow (Tab does). Only a key command with
/// ``KeyCommand/wantsPriorityOverSystemBehavior`` (or a reserved shortcut, such as an app's
/// Ctrl-C quit) beats the field.
///
/// The Control chords are the field's only while it can perform their action
/// (``Responder/canPerformAction(_:sender:)`` with ``Action/selectAll``, ``Action/copy``,
/// ``Action/cut``, ``Action/paste``, ``Action/undo``, ``Action/redo``), as UIKit sends `copy:` to
/// the first responder that can perform it: with no selection, Ctrl+C goes on to an ancestor's
/// Ctrl+C command; with nothing to undo, so does Ctrl+Z. A subclass that returns `false` for an
/// action (a PIN field that refuses paste) gives up its chord the same way. The same actions sent
/// up the chain (an app's Edit menu, ``Window/sendAction(_:sender:)``) reach the field.
///
/// Every other key — Tab, Escape, F-keys, other chords with Control, chords with Alt or Command,
/// Return without a submit action — goes on as if the field were not there: to the focus system,
/// key commands and the ancestors' presses (and their ``Responder/onExitCommand(perform:)``).
/// Pasted text arrives through ``insertText(_:)``.
///
/// ## Filtering input
///
/// ``inputFilter`` sees every change the user makes — typing, deleting, cutting, pasting and
/// ``insertText(_:)`` — before it happens, as UIKit's
/// `textField(_:shouldChangeCharactersIn:replacementString:)` does, and can accept, reject or
/// replace it; the cursor goes right after what was put in:
///
/// ```swift
/// plate.inputFilter = { _, replacement in .replace(with: replacement.uppercased()) }
/// pin.inputFilter = { _, replacement in replacement.allSatisfy(\.isNumber) ? .accept : .reject }
/// ```
///
/// ## Undo
///
/// Each change is one undo step, except that runs group as in macOS and UIKit text views: the
/// characters typed one after another at the cursor undo together, and so do Backspaces one after
/// another, and Deletes. Moving the cursor, changing the selection, pasting, cutting, undoing, or
/// switching between typing and deleting starts a new step. Undo puts back the text and the
/// selection from before the step; redo puts back the text with the cursor after it. The field
/// keeps the last 100 steps; setting ``text`` from code forgets them. Undo and redo do not ask
/// ``inputFilter`` or ``maximumLength``: they only return to texts those already allowed.
open class TextInputNode: FocusNode, TextInputResponder {
    /// The text. Setting it puts the cursor at its end, as UIKit's text fields do, and forgets the
    /// undo steps.
    public var text = "" {
        didSet {
            setNeedsDisplay()
            if isEditing {
                clampSelection()
            } else {
                characterCount = text.count
                place(characterCount)
                history.clear()
            }
        }
    }
    /// The selection as character offsets into ``text``; empty for a plain cursor.
    public var selectedRange: Range<Int> = 0..<0 {
        didSet {
            if selectedRange != oldValue { setNeedsDisplay() }
            clampSelection()
            if !isEditing { history.endRun() }
        }
    }
    /// Where the cursor is: the selection's moving end (a character offset).
    public private(set) var cursorPosition = 0 {
        didSet { if cursorPosition != oldValue { setNeedsDisplay() } }
    }
    /// The most characters the field holds; `nil` for no limit. Typing and pasting stop there.
    public var maximumLength: Int?
    /// Whether the text is secret (a password or PIN): traces show `•` for its keys,
    /// ``displayText`` shows `•` for its characters, and the field never copies or cuts.
    public var isSecureTextEntry = false
    /// The on-screen keyboard the field asks for: ``KeyboardType/numberPad`` for a PIN.
    /// ``KeyboardType/default`` by default.
    public var keyboardType: KeyboardType = .default
    /// The input view typing into the field while it is shown (an on-screen keyboard sets itself
    /// here when it shows for the field and clears it when it hides), as UIKit's `inputView`.
    /// While it is shown, Up and Down are not the field's: they move focus between the field and
    /// the input view (tvOS's keyboard is reached by the remote the same way), in either
    /// navigation style.
    public weak var inputView: FocusNode?
    /// Whether ``inputView`` is shown in the field's window.
    public var isShowingInputView: Bool {
        guard let inputView, !inputView.isHidden, let window, inputView.window === window else { return false }
        return true
    }
    /// Called after every change to ``text`` made by typing, deleting, cutting, pasting, undoing
    /// or redoing.
    public var onTextChange: ((String) -> Void)?
    /// Decides every change the user makes before it happens: UIKit's
    /// `textField(_:shouldChangeCharactersIn:replacementString:)`. `nil` accepts everything.
    ///
    /// The filter gets the range of characters to replace (empty for an insertion at the cursor)
    /// and the replacement (empty for a deletion), and returns ``FilterResult/accept``,
    /// ``FilterResult/reject`` (nothing changes, the selection stays), or
    /// ``FilterResult/replace(with:)``. It is asked for typed characters, Backspace and Delete,
    /// cut, paste and ``insertText(_:)`` (with the pasted text already cleaned of line breaks and
    /// control characters), not for undo, redo or setting ``text``. What it returns is cleaned
    /// the same way, then cut to ``maximumLength``, and the cursor goes right after it.
    public var inputFilter: ((_ range: Range<Int>, _ replacement: String) -> FilterResult)?
    /// The pasteboard copy, cut and paste use: ``Pasteboard/general`` unless set.
    public var pasteboard: Pasteboard {
        get { ownPasteboard ?? .general }
        set { ownPasteboard = newValue }
    }

    private var submitAction: (() -> Void)?
    private var ownPasteboard: Pasteboard?
    /// The selection's fixed end while Shift extends it.
    private var anchor = 0
    /// Set while an edit changes ``text`` and the selection.
    private var isEditing = false
    /// `text.count`, kept up to date by edits: counting characters walks the whole text, and an
    /// edit at the end of a long text must not (typing stays O(1) per key).
    private var characterCount = 0
    /// The undo and redo steps.
    private var history = TextEditHistory()

    /// Creates a text field.
    ///
    /// - Parameters:
    ///   - identifier: The node's name.
    ///   - frame: The frame in the window's coordinate space.
    public init(identifier: String? = nil, frame: Rect = .zero) {
        super.init(identifier: identifier, frame: frame, isFocusable: true)
        focusGroupKind = .textInput
        focusInteractions = .edit
        acceptsFirstResponder = true
    }

    /// The text as a renderer shows it: `•` for each character when secure.
    public var displayText: String {
        isSecureTextEntry ? String(repeating: "•", count: characterCount) : text
    }

    /// A text field.
    open override var defaultAccessibilityTraits: AccessibilityTraits { .textField }

    /// The text until set; for a secure field, how many characters it holds ("4 characters"; `nil`
    /// when empty), never the characters.
    open override var accessibilityValue: String? {
        get {
            if let value = super.accessibilityValue { return value }
            guard isSecureTextEntry else { return text }
            guard characterCount > 0 else { return nil }
            return characterCount == 1 ? "1 character" : "\(characterCount) characters"
        }
        set { super.accessibilityValue = newValue }
    }

    /// Whether ``undo()`` would change something.
    public var canUndo: Bool { history.canUndo }
    /// Whether ``redo()`` would change something.
    public var canRedo: Bool { history.canRedo }

    /// Runs `action` when Return (or keypad Enter) is typed in the field: SwiftUI's `onSubmit`.
    /// Without one, Return is not an editing key and goes on to key commands and ancestors.
    ///
    /// - Parameter action: The action; `nil` removes it.
    public func onSubmit(perform action: (() -> Void)?) {
        submitAction = action
    }

    /// Whether the field edits with `key`: the keys in the table above. A Control chord that
    /// stands for an editing action is the field's when ``canPerformAction(_:sender:)`` says
    /// yes (asked with ``ActionSender/application``).
    ///
    /// - Parameter key: The key going down.
    /// - Returns: `true` for an editing key.
    open func wantsToEdit(with key: Key) -> Bool {
        if let action = Self.editingAction(for: key) { return canPerformAction(action, sender: .application) }
        let modifiers = key.modifierFlags
        if modifiers.contains(.command) || modifiers.contains(.alternate) { return false }
        switch key.logicalKeyCode {
        case .leftArrow, .rightArrow, .home, .end, .backspace, .deleteForward:
            return true
        case .upArrow, .downArrow:
            return inputView == nil || !isShowingInputView
        case .return, .keypadEnter:
            return submitAction != nil && !modifiers.contains(.control)
        case .tab, .escape:
            return false
        default:
            guard !modifiers.contains(.control), let scalar = key.characters.unicodeScalars.first else { return false }
            return scalar.value >= 0x20 && scalar.value != 0x7F
        }
    }

    /// Edits with an editing key; passes every other key on.
    open override func pressesBegan(_ press: Press, with event: PressEvent) {
        guard wantsToEdit(with: press.key) else {
            super.pressesBegan(press, with: event)
            return
        }
        edit(with: press.key)
        onPress?(press)
    }

    /// Repeats the edit of a held editing key.
    open override func pressesChanged(_ press: Press, with event: PressEvent) {
        if press.phase == .repeated, wantsToEdit(with: press.key), press.key.logicalKeyCode != .return,
            press.key.logicalKeyCode != .keypadEnter
        {
            edit(with: press.key)
        }
        super.pressesChanged(press, with: event)
    }

    /// Whether the field performs an action now. For the editing actions: ``Action/selectAll``
    /// when there is text, ``Action/copy`` and ``Action/cut`` when there is a selection and the
    /// field is not secure, ``Action/paste`` when ``pasteboard`` holds text, ``Action/undo`` and
    /// ``Action/redo`` when there is a step to take. Other actions as a ``FocusNode``.
    ///
    /// - Parameters:
    ///   - action: The action.
    ///   - sender: Who sends it.
    /// - Returns: Whether ``perform(_:sender:)`` would handle it.
    open override func canPerformAction(_ action: Action, sender: ActionSender) -> Bool {
        switch action {
        case .selectAll: return characterCount > 0
        case .copy, .cut: return !selectedRange.isEmpty && !isSecureTextEntry
        case .paste: return pasteboard.hasStrings
        case .undo: return history.canUndo
        case .redo: return history.canRedo
        default: return super.canPerformAction(action, sender: sender)
        }
    }

    /// Performs an editing action (``selectAll()``, ``copy()``, ``cut()``, ``paste()``,
    /// ``undo()``, ``redo()``); other actions as a ``FocusNode``.
    ///
    /// - Parameters:
    ///   - action: The action.
    ///   - sender: Who sent it.
    open override func perform(_ action: Action, sender: ActionSender) {
        switch action {
        case .selectAll: selectAll()
        case .copy: copy()
        case .cut: cut()
        case .paste: paste()
        case .undo: undo()
        case .redo: redo()
        default: super.perform(action, sender: sender)
        }
    }

    /// Inserts text at the cursor, replacing the selection: what a paste does. Line breaks and
    /// other control characters become spaces or are dropped; ``inputFilter`` decides, and
    /// ``maximumLength`` cuts the rest. One undo step.
    ///
    /// - Parameter inserted: The text.
    open func insertText(_ inserted: String) {
        change(selectedRange, to: Self.singleLine(inserted), kind: .other)
    }

    /// Selects the whole text.
    public func selectAll() {
        anchor = 0
        cursorPosition = characterCount
        selectedRange = 0..<characterCount
    }

    /// Puts the selected text on ``pasteboard``. Does nothing without a selection or in a secure
    /// field.
    public func copy() {
        guard !selectedRange.isEmpty, !isSecureTextEntry else { return }
        pasteboard.string = String(text[index(at: selectedRange.lowerBound)..<index(at: selectedRange.upperBound)])
    }

    /// Puts the selected text on ``pasteboard`` and deletes it (when ``inputFilter`` accepts the
    /// deletion). Does nothing without a selection or in a secure field.
    public func cut() {
        guard !selectedRange.isEmpty, !isSecureTextEntry else { return }
        copy()
        change(selectedRange, to: "", kind: .other)
    }

    /// Inserts the text on ``pasteboard`` as ``insertText(_:)`` does. Does nothing when it holds
    /// no text.
    public func paste() {
        guard let string = pasteboard.string, !string.isEmpty else { return }
        insertText(string)
    }

    /// Takes back the last change (or run of typing or deleting): the text and the selection are
    /// as before it.
    public func undo() {
        guard let step = history.popUndo() else { return }
        apply(step.removedText, replacing: step.inserted.utf8.count, at: step.offset, count: step.countBefore)
        isEditing = true
        anchor =
            step.cursorBefore == step.selectionBefore.lowerBound
            ? step.selectionBefore.upperBound : step.selectionBefore.lowerBound
        cursorPosition = step.cursorBefore
        selectedRange = step.selectionBefore
        isEditing = false
        onTextChange?(text)
        postEdit(inserted: step.removedText, removed: step.inserted)
    }

    /// Makes the last undone change again, with the cursor after it.
    public func redo() {
        guard let step = history.popRedo() else { return }
        apply(step.inserted, replacing: step.removedText.utf8.count, at: step.offset, count: step.countAfter)
        isEditing = true
        place(step.cursorAfter)
        isEditing = false
        onTextChange?(text)
        postEdit(inserted: step.inserted, removed: step.removedText)
    }

    /// Applies one editing key.
    func edit(with key: Key) {
        if let action = Self.editingAction(for: key) {
            perform(action, sender: .application)
            return
        }
        let extend = key.modifierFlags.contains(.shift)
        let byWord = key.modifierFlags.contains(.control)
        // Only word moves look at the characters; the rest works on offsets.
        let characters = byWord ? Array(text) : []
        switch key.logicalKeyCode {
        case .leftArrow:
            if !extend && !selectedRange.isEmpty {
                place(selectedRange.lowerBound)
            } else {
                move(
                    to: byWord ? wordStart(before: cursorPosition, in: characters) : cursorPosition - 1, extend: extend)
            }
        case .rightArrow:
            if !extend && !selectedRange.isEmpty {
                place(selectedRange.upperBound)
            } else {
                move(to: byWord ? wordEnd(after: cursorPosition, in: characters) : cursorPosition + 1, extend: extend)
            }
        case .home, .upArrow: move(to: 0, extend: extend)
        case .end, .downArrow: move(to: characterCount, extend: extend)
        case .backspace:
            var range = selectedRange
            if range.isEmpty {
                let start = byWord ? wordStart(before: cursorPosition, in: characters) : cursorPosition - 1
                guard start >= 0 else { return }
                range = start..<cursorPosition
            }
            change(range, to: "", kind: .deletingBackward)
        case .deleteForward:
            var range = selectedRange
            if range.isEmpty {
                let end = byWord ? wordEnd(after: cursorPosition, in: characters) : cursorPosition + 1
                guard end <= characterCount else { return }
                range = cursorPosition..<end
            }
            change(range, to: "", kind: .deletingForward)
        case .return, .keypadEnter:
            submitAction?()
        default:
            change(selectedRange, to: key.characters, kind: .typing)
        }
    }

    /// Replaces the characters in `range` with `replacement` (already one clean line), asking
    /// ``inputFilter`` and cutting to ``maximumLength``; records the undo step, puts the cursor
    /// after what went in, and reports the change.
    private func change(_ range: Range<Int>, to replacement: String, kind: TextEditHistory.Kind) {
        var range = range.clamped(to: 0..<characterCount)
        var addition = replacement
        if let inputFilter {
            switch inputFilter(range, replacement) {
            case .accept: break
            case .reject: return
            case .replace(let other): addition = Self.singleLine(other)
            }
            // A filter that set the text itself must not leave the range outside it.
            range = range.clamped(to: 0..<characterCount)
        }
        var additionCount = addition.count
        if let maximumLength {
            let room = max(maximumLength - (characterCount - range.count), 0)
            if additionCount > room {
                addition = String(addition.prefix(room))
                additionCount = room
            }
        }
        guard !(range.isEmpty && addition.isEmpty) else { return }
        let lower = index(at: range.lowerBound)
        let upper = index(at: range.upperBound)
        // Characters can join across the edit (a combining or spacing mark, an emoji modifier,
        // regional indicators meeting after a deletion); between ASCII scalars they cannot, so
        // the count is kept by arithmetic there and counted again otherwise.
        let before = lower > text.startIndex ? text.unicodeScalars[text.unicodeScalars.index(before: lower)] : nil
        let after = upper < text.endIndex ? text.unicodeScalars[upper] : nil
        let stable =
            addition.utf8.allSatisfy { $0 < 0x80 } && (before.map(\.isASCII) ?? true) && (after.map(\.isASCII) ?? true)
        let countBefore = characterCount
        let selectionBefore = selectedRange
        let cursorBefore = cursorPosition
        let offset = text.utf8.distance(from: text.startIndex, to: lower)
        let removed = range.isEmpty ? "" : String(text[lower..<upper])
        characterCount = characterCount - range.count + additionCount
        isEditing = true
        text.replaceSubrange(lower..<upper, with: addition)
        if !stable { characterCount = text.count }
        place(min(range.lowerBound + additionCount, characterCount))
        isEditing = false
        history.record(
            kind, offset: offset, removed: removed, inserted: addition, selectionBefore: selectionBefore,
            cursorBefore: cursorBefore, countBefore: countBefore, countAfter: characterCount,
            cursorAfter: cursorPosition)
        onTextChange?(text)
        postEdit(inserted: addition, removed: removed)
    }

    /// Tells accessibility observers (a narrator) what an edit put in and took out: one `•` per
    /// character in a secure field. Costs nothing when nobody observes.
    private func postEdit(inserted: String, removed: String) {
        guard let window, window.hasAccessibilityObservers else { return }
        let secret = { (text: String) in String(repeating: "•", count: text.count) }
        window.postAccessibilityNotification(
            .textEdited(
                TextEdit(
                    field: identifier, inserted: isSecureTextEntry ? secret(inserted) : inserted,
                    removed: isSecureTextEntry ? secret(removed) : removed, isSecure: isSecureTextEntry)))
    }

    /// Puts `replacement` in place of the `length` UTF-8 bytes at `offset`, for undo and redo,
    /// which know the character count that results.
    private func apply(_ replacement: String, replacing length: Int, at offset: Int, count: Int) {
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        let upper = utf8.index(lower, offsetBy: length)
        isEditing = true
        characterCount = count
        text.replaceSubrange(lower..<upper, with: replacement)
        isEditing = false
    }

    /// `text` as one line: line breaks and tabs become spaces, other control characters go.
    private static func singleLine(_ text: String) -> String {
        var clean = ""
        for character in text {
            if character.isNewline || character == "\t" {
                clean.append(" ")
            } else if let scalar = character.unicodeScalars.first, scalar.value >= 0x20, scalar.value != 0x7F {
                clean.append(character)
            }
        }
        return clean
    }

    /// The index of a character offset, walked from the nearer end (O(1) at the end).
    private func index(at offset: Int) -> String.Index {
        if offset >= characterCount { return text.endIndex }
        if offset <= characterCount / 2 {
            return text.index(text.startIndex, offsetBy: max(offset, 0), limitedBy: text.endIndex) ?? text.endIndex
        }
        return text.index(text.endIndex, offsetBy: offset - characterCount, limitedBy: text.startIndex)
            ?? text.startIndex
    }

    /// Puts a plain cursor at `position`.
    private func place(_ position: Int) {
        let position = min(max(position, 0), characterCount)
        anchor = position
        cursorPosition = position
        selectedRange = position..<position
    }

    private func move(to position: Int, extend: Bool) {
        let position = min(max(position, 0), characterCount)
        guard extend else {
            place(position)
            return
        }
        if selectedRange.isEmpty { anchor = cursorPosition }
        cursorPosition = position
        selectedRange = min(anchor, position)..<max(anchor, position)
    }

    private func wordStart(before position: Int, in characters: [Character]) -> Int {
        var index = min(position, characters.count)
        while index > 0 && !isWordCharacter(characters[index - 1]) { index -= 1 }
        while index > 0 && isWordCharacter(characters[index - 1]) { index -= 1 }
        return index
    }

    private func wordEnd(after position: Int, in characters: [Character]) -> Int {
        var index = max(position, 0)
        while index < characters.count && !isWordCharacter(characters[index]) { index += 1 }
        while index < characters.count && isWordCharacter(characters[index]) { index += 1 }
        return index
    }

    private func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private func clampSelection() {
        let count = characterCount
        let clamped = selectedRange.clamped(to: 0..<count)
        if clamped != selectedRange { selectedRange = clamped }
        if cursorPosition > count || !(selectedRange.lowerBound...selectedRange.upperBound).contains(cursorPosition) {
            cursorPosition = selectedRange.upperBound
            anchor = selectedRange.lowerBound
        }
    }
}
