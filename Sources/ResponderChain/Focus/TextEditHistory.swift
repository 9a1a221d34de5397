/// A text field's undo and redo steps.
///
/// A step records where an edit happened as a UTF-8 offset, not a character offset: characters
/// can join across an edit (a combining mark typed after a letter), so character offsets taken
/// before an edit need not hold after it, while the bytes an undo puts back are exactly the bytes
/// the edit took out. Undo and redo restore the character count and the selection the step
/// recorded, so they never count the text again.
///
/// Runs of one kind of edit grow the last step instead of adding one: typed characters at the
/// point where the previous one went, Backspaces each ending where the previous deletion began,
/// Deletes at the same point. Growing a step appends to its strings, so typing stays O(1) per
/// key and allocates only when a string or the step list grows.
struct TextEditHistory {
    /// What an edit was, for grouping.
    enum Kind {
        /// A typed character (a key with a character).
        case typing
        /// Backspace.
        case deletingBackward
        /// Forward Delete.
        case deletingForward
        /// Anything else: a paste, a cut, inserted text. Never grows.
        case other
    }

    /// One undoable change: the text between ``offset`` and the end of ``inserted`` was
    /// ``removedText`` before it.
    struct Step {
        /// The UTF-8 offset at which the edit starts.
        var offset: Int
        /// The text the edit removed after a run of Backspaces' part (see ``removedBackward``).
        var removed: String
        /// What a run of Backspaces removed before ``removed``, nearest first (so that growing the
        /// run appends instead of prepending).
        var removedBackward: [String] = []
        /// The text the edit put in.
        var inserted: String
        /// The selection before the edit, and its moving end.
        var selectionBefore: Range<Int>
        var cursorBefore: Int
        /// The character counts before and after.
        var countBefore: Int
        var countAfter: Int
        /// The cursor after the edit.
        var cursorAfter: Int

        /// Everything the step removed, in text order.
        var removedText: String {
            removedBackward.isEmpty ? removed : removedBackward.reversed().joined() + removed
        }
    }

    /// The most steps kept; the oldest go first.
    static let limit = 100

    private(set) var undoSteps: [Step] = []
    private(set) var redoSteps: [Step] = []
    /// The kind of the last step while it can still grow; `nil` once anything else happened.
    private var run: Kind?

    var canUndo: Bool { !undoSteps.isEmpty }
    var canRedo: Bool { !redoSteps.isEmpty }

    /// Ends the current run: the next edit makes a step of its own (the cursor moved, the
    /// selection changed).
    mutating func endRun() {
        run = nil
    }

    /// Forgets every step (the text was set from outside).
    mutating func clear() {
        undoSteps.removeAll()
        redoSteps.removeAll()
        run = nil
    }

    /// Records an edit made at `offset` that replaced `removed` with `inserted`.
    mutating func record(
        _ kind: Kind, offset: Int, removed: String, inserted: String, selectionBefore: Range<Int>, cursorBefore: Int,
        countBefore: Int, countAfter: Int, cursorAfter: Int
    ) {
        if !redoSteps.isEmpty { redoSteps.removeAll() }
        if kind != .other, kind == run, grow(kind, offset: offset, removed: removed, inserted: inserted) {
            undoSteps[undoSteps.count - 1].countAfter = countAfter
            undoSteps[undoSteps.count - 1].cursorAfter = cursorAfter
            return
        }
        if undoSteps.count == Self.limit { undoSteps.removeFirst() }
        undoSteps.append(
            Step(
                offset: offset, removed: removed, inserted: inserted, selectionBefore: selectionBefore,
                cursorBefore: cursorBefore, countBefore: countBefore, countAfter: countAfter, cursorAfter: cursorAfter))
        run = kind == .other ? nil : kind
    }

    /// Grows the last step by an edit of its run's kind that continues it; `false` when the edit
    /// does not continue it.
    private mutating func grow(_ kind: Kind, offset: Int, removed: String, inserted: String) -> Bool {
        let last = undoSteps.count - 1
        guard last >= 0 else { return false }
        switch kind {
        case .typing:
            guard removed.isEmpty, offset == undoSteps[last].offset + undoSteps[last].inserted.utf8.count else {
                return false
            }
            undoSteps[last].inserted.append(inserted)
        case .deletingBackward:
            guard inserted.isEmpty, undoSteps[last].inserted.isEmpty,
                offset + removed.utf8.count == undoSteps[last].offset
            else { return false }
            undoSteps[last].removedBackward.append(removed)
            undoSteps[last].offset = offset
        case .deletingForward:
            guard inserted.isEmpty, undoSteps[last].inserted.isEmpty, offset == undoSteps[last].offset else {
                return false
            }
            undoSteps[last].removed.append(removed)
        case .other:
            return false
        }
        return true
    }

    /// Takes the last step off the undo list and puts it on the redo list.
    mutating func popUndo() -> Step? {
        run = nil
        guard let step = undoSteps.popLast() else { return nil }
        redoSteps.append(step)
        return step
    }

    /// Takes the last undone step off the redo list and puts it back on the undo list.
    mutating func popRedo() -> Step? {
        run = nil
        guard let step = redoSteps.popLast() else { return nil }
        undoSteps.append(step)
        return step
    }
}
