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
/// | Up, Down | to the start or the end, as in UIKit's single-line fields |
/// | Shift with any move | extend the selection |
/// | Backspace, Delete | delete the selection, or the character before or after the cursor; with Ctrl, the word |
/// | Return, keypad Enter | run the ``onSubmit(perform:)`` action, when there is one |
///
/// Held editing keys repeat. The field takes these keys before the focus system and before key
/// commands, as UIKit's text system does: a window's Up or Down key command does not fire while a
/// field is first responder, no ancestor sees those presses, and the focus system does not move
/// out of the field with an arrow (Tab does). Only a key command with
/// ``KeyCommand/wantsPriorityOverSystemBehavior`` beats the field.
///
/// Every other key — Tab, Escape, F-keys, chords with Control or Command, Return without a
/// submit action — goes on as if the field were not there: to the focus system, key commands and
/// the ancestors' presses (and their ``Responder/onExitCommand(perform:)``). Pasted text arrives
/// through ``insertText(_:)``.
open class TextInputNode: FocusNode, TextInputResponder {
    /// The text. Setting it puts the cursor at its end, as UIKit's text fields do.
    public var text = "" {
        didSet {
            if isEditing {
                clampSelection()
            } else {
                characterCount = text.count
                place(characterCount)
            }
        }
    }
    /// The selection as character offsets into ``text``; empty for a plain cursor.
    public var selectedRange: Range<Int> = 0..<0 {
        didSet { clampSelection() }
    }
    /// Where the cursor is: the selection's moving end (a character offset).
    public private(set) var cursorPosition = 0
    /// The most characters the field holds; `nil` for no limit. Typing and pasting stop there.
    public var maximumLength: Int?
    /// Whether the text is secret (a password or PIN): traces show `•` for its keys, and
    /// ``displayText`` shows `•` for its characters.
    public var isSecureTextEntry = false
    /// Called after every change to ``text`` made by typing, deleting or pasting.
    public var onTextChange: ((String) -> Void)?

    private var submitAction: (() -> Void)?
    /// The selection's fixed end while Shift extends it.
    private var anchor = 0
    /// Set while an edit changes ``text``.
    private var isEditing = false
    /// `text.count`, kept up to date by edits: counting characters walks the whole text, and an
    /// edit at the end of a long text must not (typing stays O(1) per key).
    private var characterCount = 0

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

    /// Runs `action` when Return (or keypad Enter) is typed in the field: SwiftUI's `onSubmit`.
    /// Without one, Return is not an editing key and goes on to key commands and ancestors.
    ///
    /// - Parameter action: The action; `nil` removes it.
    public func onSubmit(perform action: (() -> Void)?) {
        submitAction = action
    }

    /// Whether the field edits with `key`: the keys in the table above.
    ///
    /// - Parameter key: The key going down.
    /// - Returns: `true` for an editing key.
    open func wantsToEdit(with key: Key) -> Bool {
        let modifiers = key.modifierFlags
        if modifiers.contains(.command) || modifiers.contains(.alternate) { return false }
        switch key.keyCode {
        case .leftArrow, .rightArrow, .upArrow, .downArrow, .home, .end, .backspace, .deleteForward:
            return true
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
        if press.phase == .repeated, wantsToEdit(with: press.key), press.key.keyCode != .return,
            press.key.keyCode != .keypadEnter
        {
            edit(with: press.key)
        }
        super.pressesChanged(press, with: event)
    }

    /// Inserts text at the cursor, replacing the selection: what a paste does. Line breaks and
    /// other control characters become spaces or are dropped; ``maximumLength`` cuts the rest.
    ///
    /// - Parameter inserted: The text.
    open func insertText(_ inserted: String) {
        var clean = ""
        for character in inserted {
            if character.isNewline || character == "\t" {
                clean.append(" ")
            } else if let scalar = character.unicodeScalars.first, scalar.value >= 0x20, scalar.value != 0x7F {
                clean.append(character)
            }
        }
        replaceSelection(with: clean)
    }

    /// Applies one editing key.
    func edit(with key: Key) {
        let extend = key.modifierFlags.contains(.shift)
        let byWord = key.modifierFlags.contains(.control)
        // Only word moves look at the characters; the rest works on offsets.
        let characters = byWord ? Array(text) : []
        switch key.keyCode {
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
            if selectedRange.isEmpty {
                let start = byWord ? wordStart(before: cursorPosition, in: characters) : cursorPosition - 1
                guard start >= 0 else { return }
                selectedRange = start..<cursorPosition
            }
            replaceSelection(with: "")
        case .deleteForward:
            if selectedRange.isEmpty {
                let end = byWord ? wordEnd(after: cursorPosition, in: characters) : cursorPosition + 1
                guard end <= characterCount else { return }
                selectedRange = cursorPosition..<end
            }
            replaceSelection(with: "")
        case .return, .keypadEnter:
            submitAction?()
        default:
            replaceSelection(with: key.characters)
        }
    }

    private func replaceSelection(with inserted: String) {
        let range = selectedRange.clamped(to: 0..<characterCount)
        var addition = inserted
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
        characterCount = characterCount - range.count + additionCount
        isEditing = true
        text.replaceSubrange(lower..<upper, with: addition)
        if !stable { characterCount = text.count }
        isEditing = false
        place(min(range.lowerBound + additionCount, characterCount))
        onTextChange?(text)
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
