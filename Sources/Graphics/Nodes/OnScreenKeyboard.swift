public import ResponderChain

/// A key of an ``OnScreenKeyboard``: a focusable button whose accessibility label is what it
/// types ("q", "ü", "7") or does ("shift", "delete").
open class KeyNode: ButtonNode {
    /// What a key does.
    public enum Kind: Hashable, Sendable {
        /// Types `text`, as the key `code` of the layout does.
        case character(String, KeyCode)
        /// Switches to capitals for the next character.
        case shift
        /// Deletes the character before the cursor.
        case backspace
        /// Return: ends the field's entry.
        case enter
        /// A space.
        case space
        /// Hides the keyboard.
        case hide
        /// Shows the page of digits and symbols.
        case symbols
        /// Shows the letters again.
        case letters
    }

    /// What it does.
    public let kind: Kind
    /// The keyboard it belongs to.
    public private(set) weak var keyboard: OnScreenKeyboard?
    /// Whether a pressed key shows its character enlarged above it (off in a secure field).
    var showsPreview = true
    /// ``showsPreview``, for tests.
    package var showsPreviewForTests: Bool { showsPreview }

    init(_ kind: Kind, keyboard: OnScreenKeyboard, theme: Theme) {
        self.kind = kind
        self.keyboard = keyboard
        let (title, name, label) = Self.names(for: kind)
        super.init(title, look: .tile, theme: theme, identifier: "key-" + name)
        accessibilityLabel = label
        primaryAction = OnScreenKeyboard.typeAction
        performableActions = [OnScreenKeyboard.typeAction]
        focusEffect = .ring(width: 3, gap: 2)
        cornerRadius = 8
    }

    private static func names(for kind: Kind) -> (title: String, identifier: String, label: String) {
        switch kind {
        case .character(let text, _): return (text, text, text)
        case .shift: return ("⇧", "shift", "shift")
        case .backspace: return ("⌫", "backspace", "delete")
        case .enter: return ("⏎", "return", "return")
        case .space: return ("space", "space", "space")
        case .hide: return ("⌄", "hide", "hide keyboard")
        case .symbols: return ("123", "symbols", "numbers and symbols")
        case .letters: return ("ABC", "letters", "letters")
        }
    }

    /// Types the key when selected or tapped.
    open override func perform(_ action: Action, sender: ActionSender) {
        guard action == OnScreenKeyboard.typeAction else { return super.perform(action, sender: sender) }
        keyboard?.type(self)
    }

    /// A key: its face, its character centred, and an enlarged preview above it while pressed.
    open override func draw(in context: any GraphicsContext, state: DrawingState) {
        let special: Bool = if case .character = kind { false } else { true }
        let face =
            state.isPressed
            ? theme.accent.opacity(0.25) : special ? theme.outline.opacity(0.45) : theme.surface
        let shape = Path.roundedRect(frame, cornerRadius: cornerRadius)
        context.fill(shape, face)
        context.stroke(shape, theme.outline, lineWidth: 1)
        if state.isSelected { context.stroke(shape, theme.accent, lineWidth: 3) }
        let size = min(frame.height * 0.45, special ? 22 : 30)
        context.draw(
            title, in: frame,
            style: TextStyle(
                font: theme.font(size, special ? .semibold : .regular), color: theme.text, alignment: .center))
        if state.isPressed, showsPreview, case .character = kind {
            let bubble = Rect(
                x: frame.minX - 6, y: frame.minY - frame.height - 12, width: frame.width + 12, height: frame.height + 8)
            context.withSavedState {
                context.setShadow(Shadow(offset: Point(x: 0, y: 2), radius: 6))
                context.fill(.roundedRect(bubble, cornerRadius: 10), theme.surface)
            }
            context.draw(
                title, in: bubble,
                style: TextStyle(font: theme.font(size * 1.5, .medium), color: theme.text, alignment: .center))
        }
    }
}

/// A keyboard on the screen for kiosks without one (Qt Virtual Keyboard, the iPad's keyboard,
/// tvOS's): shown when a text field becomes first responder and no keyboard is attached (or when
/// the app asks), on the active layout's letters (`de` gives QWERTZ with ü, ö, ä and ß), with
/// shift, a page of digits and symbols, backspace, return and hide; a number pad for fields
/// whose `KeyboardType` asks for one.
///
/// It is a focus group of ``KeyNode``s: a finger taps them, and arrows, a remote or a gamepad walk
/// them and select; Down from the field reaches it and Up from its top row goes back (the field's
/// `TextInputNode.inputView` while it is shown). It is an input view (`FocusNode.isInputView`):
/// walking it leaves the field first responder. Every key it types goes through the app's one input sink as a key of its own
/// device, so traces, key-command reports, input filters and tests see it as typing (a secure
/// field's keys are `•` in traces), and a narrator speaks each key as focus reaches it.
///
/// ```swift
/// let keyboard = OnScreenKeyboard(layout: app.layout ?? USKeyboardLayout(), sink: app.inputContext.sink,
///                                 device: app.inputContext.makeDeviceID())
/// root.addChild(keyboard)
/// keyboard.frame = Rect(x: 0, y: 700, width: 1920, height: 380)
/// keyboard.attach(to: app.focusSystem)                 // shows itself for text fields
/// ```
open class OnScreenKeyboard: PanelNode {
    /// The pages a keyboard shows.
    public enum Page: Hashable, Sendable {
        /// Small letters.
        case letters
        /// Capitals (for the next character).
        case shifted
        /// Digits and symbols.
        case symbols
        /// Digits only, large.
        case numberPad
    }

    /// When the keyboard shows itself.
    public enum Presentation: Hashable, Sendable {
        /// When a text field becomes first responder and ``hasHardwareKeyboard`` says no keyboard
        /// is attached, or cannot tell and a finger focused the field (`Window.lastInteraction`
        /// is `touch`: GNOME's rule, for a compositor whose seat always reports a keyboard); it
        /// hides when no text field is first responder.
        case automatic
        /// Only through ``show(for:)`` and ``hide()``.
        case manual
    }

    /// The action a key sends when tapped or selected.
    public static let typeAction = Action("typeOnScreenKey")

    /// The layout the keys are read from.
    public let layout: any KeyboardLayout
    /// Where the keys go: the app's input sink (`app.inputContext.sink`) or a dispatcher.
    public let sink: any InputSink
    /// The keyboard's own device, so that traces tell its keys from a hardware keyboard's.
    public let device: DeviceID
    /// When it shows itself.
    public var presentation: Presentation = .automatic
    /// Whether a hardware keyboard is attached now (the app's devices), or `nil` when the app
    /// cannot tell (a compositor's seat reports a keyboard whether one is plugged in or not): then
    /// the keyboard shows for a field a finger focused, as GNOME's does. `false` by default, so
    /// that an automatic keyboard shows for every text field.
    public var hasHardwareKeyboard: () -> Bool? = { false }
    /// The time of the keys it sends, in seconds: the app's clock; by default a counter.
    public var clock: (() -> Double)?
    /// Called when it shows (`true`) or hides (`false`), after the change: lay the screen out
    /// around it.
    public var onVisibilityChange: ((Bool) -> Void)?

    /// The field it types into while shown.
    public private(set) weak var target: TextInputNode?
    /// The page shown.
    public private(set) var page: Page = .letters
    /// The keys of the page shown, row by row.
    public private(set) var rows: [[KeyNode]] = []
    private var observation: UInt64?
    private var activationObservation: UInt64?
    private weak var focusSystem: FocusSystem?
    private var ticks = 0.0

    /// Makes a hidden keyboard.
    ///
    /// - Parameters:
    ///   - layout: The layout whose characters the keys type.
    ///   - sink: Where its keys go.
    ///   - device: Its device.
    ///   - theme: Its colours.
    ///   - identifier: Its name in traces (and its focus group's).
    public init(
        layout: any KeyboardLayout, sink: any InputSink, device: DeviceID, theme: Theme = .standard,
        identifier: String = "keyboard"
    ) {
        self.layout = layout
        self.sink = sink
        self.device = device
        super.init(theme: theme, identifier: identifier)
        fill = theme.background.mixed(with: theme.outline, by: 0.35)
        cornerRadius = 0
        focusGroupIdentifier = identifier
        isInputView = true
        // A keyboard's keys keep their places on a right-to-left screen: a Hebrew or Arabic
        // keyboard is not mirrored (the iPad's is not), and a Latin one read backwards is wrong.
        layoutDirection = .leftToRight
        isHidden = true
        build()
    }

    /// Follows the first responder: shows for a text field when ``presentation`` is automatic and
    /// no hardware keyboard is attached (see ``Presentation/automatic``), hides when no field is
    /// first responder, and shows again when the field is tapped after ``hide()``.
    ///
    /// - Parameter focusSystem: The window's focus system.
    public func attach(to focusSystem: FocusSystem) {
        if let old = self.focusSystem {
            for token in [observation, activationObservation].compactMap(\.self) { old.removeObserver(token) }
        }
        self.focusSystem = focusSystem
        observation = focusSystem.addObserver { [weak self] _ in self?.firstResponderMayHaveChanged() }
        // A tap on the field that is first responder brings a hidden keyboard back.
        activationObservation = focusSystem.addActivationObserver { [weak self] item in
            guard let self, self.presentation == .automatic, self.isHidden, let field = item as? TextInputNode,
                self.window?.firstResponder === field, self.wantsToShow()
            else { return }
            self.show(for: field)
        }
        firstResponderMayHaveChanged()
    }

    /// Shows the keyboard for a field: its number pad when the field asks for one, else the letters.
    ///
    /// - Parameter field: The field typed into.
    public func show(for field: TextInputNode) {
        if let old = target, old !== field, old.inputView === self { old.inputView = nil }
        target = field
        field.inputView = self
        let wanted: Page = field.keyboardType == .numberPad || field.keyboardType == .decimalPad ? .numberPad : .letters
        if wanted != page || rows.isEmpty { setPage(wanted) } else { layoutKeys() }
        for key in rows.joined() { key.showsPreview = !field.isSecureTextEntry }
        guard isHidden else { return }
        isHidden = false
        window?.inputViewDevices.insert(device)
        onVisibilityChange?(true)
    }

    /// Hides the keyboard; the field stays first responder.
    public func hide() {
        guard !isHidden else { return }
        isHidden = true
        if let target, target.inputView === self { target.inputView = nil }
        window?.inputViewDevices.remove(device)
        onVisibilityChange?(false)
    }

    private func firstResponderMayHaveChanged() {
        guard presentation == .automatic else { return }
        if let field = window?.firstResponder as? TextInputNode, wantsToShow() {
            if field !== target || isHidden { show(for: field) }
        } else if window?.firstResponder == nil || !(window?.firstResponder is TextInputNode) {
            // Focus on one of the keys keeps the field first responder, so this is a real leave.
            hide()
        }
    }

    /// Whether an automatic keyboard shows for a field now: when no keyboard is attached, or,
    /// when the app cannot tell, when a finger focused it.
    private func wantsToShow() -> Bool {
        if let attached = hasHardwareKeyboard() { return !attached }
        return window?.lastInteraction == .touch
    }

    // MARK: - Typing

    /// Types a key: a character, backspace, return or space as a key of the keyboard's device
    /// through the sink; shift, the pages and hide act on the keyboard.
    ///
    /// - Parameter key: The key.
    public func type(_ key: KeyNode) {
        switch key.kind {
        case .character(let text, let code):
            send(code, text: text)
            if page == .shifted { setPage(.letters) }
        case .space: send(.space, text: " ")
        case .backspace: send(.backspace, text: nil)
        case .enter: send(.return, text: nil)
        case .shift: setPage(page == .shifted ? .letters : .shifted)
        case .symbols: setPage(.symbols)
        case .letters: setPage(.letters)
        case .hide: hide()
        }
    }

    private func send(_ code: KeyCode, text: String?) {
        let time = clock?() ?? next()
        sink.receive(.key(KeyEvent(code, .down, device: device, timestamp: time, text: text)))
        sink.receive(.key(KeyEvent(code, .up, device: device, timestamp: time)))
    }

    private func next() -> Double {
        ticks += 0.001
        return ticks
    }

    // MARK: - Pages

    /// The evdev codes of the letter rows and the digit row (a PC keyboard's positions: the
    /// layout decides what each types).
    static let letterRows: [[UInt16]] = [Array(16...27), Array(30...40), Array(44...53)]
    static let digitRow: [UInt16] = Array(2...13)
    static let symbolCodes: [UInt16] = [12, 13, 26, 27, 39, 40, 41, 43, 51, 52, 53]

    /// Shows a page.
    ///
    /// - Parameter page: The page.
    public func setPage(_ page: Page) {
        self.page = page
        let focusedIndex = Array(rows.joined()).firstIndex { $0.isFocused }
        for key in rows.joined() { key.removeFromParent() }
        rows = makeRows(for: page)
        for key in rows.joined() {
            key.showsPreview = !(target?.isSecureTextEntry ?? false)
            addChild(key)
        }
        layoutKeys()
        // Focus stays on the same place when a page changes under it (shift, 123).
        if let focusedIndex, let focusSystem {
            let keys = Array(rows.joined())
            focusSystem.setNeedsFocusUpdate(on: keys[min(focusedIndex, keys.count - 1)])
        }
    }

    private func build() { setPage(.letters) }

    private func characterKeys(_ codes: [UInt16], shifted: Bool, letters: Bool?) -> [KeyNode] {
        codes.compactMap { raw in
            let code = KeyCode(raw)
            let state = LayoutState(modifierFlags: shifted ? .shift : [])
            let text = layout.characters(for: code, in: state)
            guard let scalar = text.unicodeScalars.first, text.count == 1, scalar.value >= 0x20, scalar.value != 0x7F
            else { return nil }
            if let letters, Character(text).isLetter != letters { return nil }
            return KeyNode(.character(text, code), keyboard: self, theme: theme)
        }
    }

    private func makeRows(for page: Page) -> [[KeyNode]] {
        func key(_ kind: KeyNode.Kind) -> KeyNode { KeyNode(kind, keyboard: self, theme: theme) }
        switch page {
        case .letters, .shifted:
            let shifted = page == .shifted
            var letterRows = Self.letterRows.map { characterKeys($0, shifted: shifted, letters: true) }
            // A layout's letters on the digit row (ß on German's) join the first row.
            letterRows[0] += characterKeys(Self.digitRow, shifted: shifted, letters: true)
            let shift = key(.shift)
            shift.isSelected = shifted
            var last = [shift] + letterRows[2]
            last.append(key(.backspace))
            var bottom = [key(.symbols)]
            if target?.keyboardType == .emailAddress {
                bottom += characterKeys([3], shifted: true, letters: false)  // @ on most layouts
            }
            bottom += [key(.space)]
            bottom += characterKeys([52], shifted: false, letters: false)
            bottom += [key(.enter), key(.hide)]
            return [letterRows[0], letterRows[1], last, bottom].filter { !$0.isEmpty }
        case .symbols:
            let digits = characterKeys(Self.digitRow, shifted: false, letters: false)
            let shiftedDigits = characterKeys(Self.digitRow, shifted: true, letters: false)
            let symbols = characterKeys(Self.symbolCodes, shifted: false, letters: false)
            return [
                digits, shiftedDigits, symbols + [key(.backspace)],
                [key(.letters), key(.space), key(.enter), key(.hide)],
            ]
        case .numberPad:
            let digits = characterKeys(Array(2...11), shifted: false, letters: false)
            let byValue = Dictionary(
                uniqueKeysWithValues: digits.compactMap { key -> (String, KeyNode)? in
                    if case .character(let text, _) = key.kind { return (text, key) }
                    return nil
                })
            func digit(_ text: String) -> KeyNode? { byValue[text] }
            var rows: [[KeyNode]] = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]].map { $0.compactMap(digit) }
            var last: [KeyNode] = [key(.backspace)]
            if let zero = digit("0") { last.append(zero) }
            if target?.keyboardType == .decimalPad {
                last += characterKeys([52], shifted: false, letters: false)
            }
            last += [key(.enter), key(.hide)]
            rows.append(last)
            return rows
        }
    }

    /// Places the keys in the frame: rows of equal height, keys of equal width within a row (the
    /// space bar four times wider), centred, 8 points apart. Call it after changing the frame.
    public func layoutKeys() {
        guard !rows.isEmpty, frame.width > 0, frame.height > 0 else { return }
        let gap = 8.0
        let inner = frame.insetBy(dx: 12, dy: 12)
        let rowHeight = (inner.height - gap * Double(rows.count - 1)) / Double(rows.count)
        let units = rows.map { row in row.reduce(0.0) { $0 + ($1.kind == .space ? 4 : 1) } }
        let widest = units.max() ?? 1
        let pad = page == .numberPad
        let unitWidth = min(
            (inner.width - gap * (widest - 1)) / widest, pad ? inner.width / 4 : .infinity)
        for (index, row) in rows.enumerated() {
            let rowWidth = units[index] * unitWidth + gap * Double(row.count - 1)
            var x = inner.minX + (inner.width - rowWidth) / 2
            let y = inner.minY + Double(index) * (rowHeight + gap)
            for key in row {
                let width = (key.kind == .space ? 4 : 1) * unitWidth + (key.kind == .space ? 3 * gap : 0)
                key.frame = Rect(x: x, y: y, width: width, height: rowHeight)
                x += width + gap
            }
        }
    }
}
