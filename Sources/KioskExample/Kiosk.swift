import Graphics
import ResponderChain

/// The kiosk's window, its screens and what they do; built only on the public API.
///
/// It has two faces over one focus tree: in a terminal, frames are cells (``layout(columns:rows:)``)
/// and Rendering.swift draws the screen on a canvas; when the app draws nodes (a Wayland window, a
/// display), frames are points (``layout(points:)``) and the nodes draw themselves
/// (``useGraphicalFace(size:language:)``). The identifiers, groups and behaviour are the same.
@MainActor final class Kiosk {
    enum Screen: String, CaseIterable {
        case home = "Home"
        case directory = "Directory"
        case checkIn = "Check in"
    }

    let window = Window(identifier: "kiosk")
    let root = Surface(identifier: "kiosk")

    // The two areas: Tab moves between them, each remembers its item.
    let sidebar = Surface(identifier: "sidebar")
    let content = Surface(identifier: "content")
    private(set) var navigation: [Screen: Button] = [:]

    // Home: a grid of tiles.
    let home = Surface(identifier: "home")
    private(set) var tiles: [Button] = []

    // Directory: a search field over a long list.
    let directory = Surface(identifier: "directory")
    let search = Field("search", label: "Search", maximumLength: 40)
    let list = Surface(identifier: "list")
    let rows: [Row]
    /// The first row drawn (the list scrolls to reveal the focused row); set by either face's layout.
    var scrollTop = 0
    /// The row the details line describes: follows focus in the list.
    private(set) var selectedRow: Row? {
        didSet {
            oldValue?.isCurrent = false
            selectedRow?.isCurrent = true
        }
    }
    /// Whether the search is open (Ctrl-F): its field shows in a terminal, and Escape closes it.
    /// The graphical face shows the field whether or not (a finger has no Ctrl-F).
    private(set) var isSearchOpen = false {
        didSet { search.isHidden = !isSearchOpen && appearance == nil }
    }

    // Check in: a form.
    let form = Surface(identifier: "form")
    let nameField = Field("name", label: "Name", maximumLength: 24)
    let pinField = Field("pin", label: "PIN", secure: true, digitsOnly: true, maximumLength: 6)
    let consent = Checkbox("consent", "I agree to be called by name in the waiting room")
    let submit = Button("submit", "Check in")

    // The dialog: a modal focus scope.
    let dialog = Surface(identifier: "dialog")
    let confirm = Button("confirm", "Confirm")
    let cancel = Button("cancel", "Cancel")
    private(set) var dialogText = "" {
        didSet { dialog.setNeedsDisplay() }
    }
    private var onConfirm: (() -> Void)?

    // The help overlay: a modal focus scope with one button, so that no key moves focus behind it.
    let helpPanel = Surface(identifier: "help")
    let helpClose = Button("help-close", "Close")
    /// The key commands the overlay lists: those active where focus was when it opened.
    private(set) var helpCommands: [DiscoverableKeyCommandGroup] = []
    /// The key commands active now; the app sets it to its dispatcher's discoverability API.
    var activeKeyCommands: () -> [DiscoverableKeyCommandGroup] = { [] }

    private(set) var screen: Screen = .home
    /// Whether the help overlay shows (F1, the Help tile, or Super held for a second).
    var showsHelp: Bool {
        get { !helpPanel.isHidden }
        set { newValue ? openHelp() : closeHelp() }
    }
    /// What the kiosk says on its message line.
    var message = "Welcome. Choose a tile with the arrows and Return; F1 shows the keys." {
        didSet { if message != oldValue, let appearance { root.setNeedsDisplay(footerFrame(appearance.metrics)) } }
    }

    /// How the graphical face looks, once the kiosk draws nodes (``useGraphicalFace(size:language:)``
    /// sets it); `nil` in a terminal.
    var appearance: KioskAppearance?
    /// The on-screen keyboard of the graphical face (``attachKeyboard(_:focusSystem:)`` sets it).
    var keyboard: OnScreenKeyboard?
    /// How many rows of the directory the graphical face shows.
    var visibleRows = 1
    /// Whether the graphical face shows the screen's heading (not on a short screen while the
    /// keyboard is up under the form).
    var showsContentHeading = true {
        didSet { if showsContentHeading != oldValue { content.setNeedsDisplay() } }
    }

    /// What the kiosk says, in its graphical face's language (English in a terminal).
    var sentences: KioskSentences { appearance?.language.sentences ?? .english }

    /// Puts a message on the message line and says it to a listener (an announcement: a screen
    /// reader speaks it whole, whatever has focus).
    func say(_ text: String) {
        message = text
        window.postAccessibilityNotification(.announcement(text))
    }
    /// The terminal's size the frames were laid out for.
    private(set) var size = (columns: 80, rows: 24)

    static let minimumSize = (columns: 80, rows: 24)
    static let rootActions: Set<Action> = ["toggleHelp", "openSearch", "goHome"]

    init() {
        rows = DirectoryEntry.all.enumerated().map { Row($1, index: $0) }
        window.addChild(root)
        root.addChild(sidebar)
        root.addChild(content)
        sidebar.focusGroupIdentifier = "sidebar"
        content.focusGroupIdentifier = "content"
        // What a screen reader says on entering each area: "Menu"; the content area by its screen.
        sidebar.accessibilityLabel = "Menu"
        // The first screen opens on its first tile, not on the menu.
        root.preferredFocusIdentifiers = ["content"]
        buildSidebar()
        buildHome()
        buildDirectory()
        buildForm()
        buildDialog()
        buildHelp()
        buildCommands()
        show(.home)
        layout(columns: 80, rows: 24)
    }

    // MARK: Building

    private func buildSidebar() {
        for screen in Screen.allCases {
            let button = Button(
                "nav-" + screen.rawValue.lowercased().replacingSpaces, screen.rawValue, look: .navigation)
            button.onChoose = { [unowned self] in self.show(screen) }
            navigation[screen] = button
            sidebar.addChild(button)
        }
    }

    private func buildHome() {
        content.addChild(home)
        let specs: [(String, String, String)] = [
            ("checkin", "Check in", "appointments"), ("find", "Directory", "people, rooms"),
            ("hours", "Opening hours", "this week"), ("pharmacy", "Pharmacy", "prescriptions"),
            ("parking", "Parking", "tickets"), ("help", "Help", "the keys, F1"),
        ]
        for (identifier, title, subtitle) in specs {
            let tile = Button("tile-" + identifier, title, subtitle: subtitle, look: .tile)
            tile.onChoose = { [unowned self] in self.open(tile: identifier) }
            tiles.append(tile)
            home.addChild(tile)
        }
    }

    private func buildDirectory() {
        content.addChild(directory)
        directory.addChild(search)
        directory.addChild(list)
        for row in rows {
            list.addChild(row)
            row.onFocusChange = { [unowned self, unowned row] focused in
                if focused { self.selectedRow = row }
            }
        }
        // The list scrolls so that the focused row shows, as a scroll view does for UIKit's focus.
        list.onReveal = { [unowned self] item in
            guard let row = item as? Row else { return }
            self.reveal(row)
        }
        search.isHidden = true
        // Focus reaches the field only while the search is open in a terminal; in the graphical
        // face, where the field is always on screen, a tap on it opens the search.
        search.onFocusChange = { [unowned self] focused in
            if focused && !self.isSearchOpen { self.isSearchOpen = true }
        }
        search.accessibilityHint = "Down goes to the results; Escape closes the search"
        search.onTextChange = { [unowned self] text in self.filter(text) }
        search.onSubmit { [unowned self] in self.focusResults() }
        // Escape in the field or the results closes the search and shows every row again; with
        // no search open it goes on up.
        directory.onKeyPress([.escape], phases: .down) { [unowned self] _ in
            guard self.isSearchOpen else { return .ignored }
            self.closeSearch()
            return .handled
        }
        // Down leaves the field for the results: a key command that goes before the focus
        // system's own arrow handling (which would look for a neighbour by geometry).
        search.keyCommands = [
            KeyCommand(
                .downArrow, action: "focusResults", title: "Go to the results", wantsPriorityOverSystemBehavior: true)
        ]
        search.performableActions = ["focusResults"]
        search.onAction = { [unowned self] _, _ in self.focusResults() }
    }

    private func buildForm() {
        content.addChild(form)
        for node in [nameField, pinField, consent, submit] as [FocusNode] { form.addChild(node) }
        pinField.keyboardType = .numberPad  // the on-screen keyboard's number pad
        nameField.onSubmit { [unowned self] in _ = self.focusSystem?.requestFocus(on: self.pinField) }
        // Return in the last field submits, as the Check in button does.
        pinField.onSubmit { [unowned self] in self.submitForm() }
        submit.onChoose = { [unowned self] in self.submitForm() }
    }

    private func buildDialog() {
        root.addChild(dialog)
        dialog.focusGroupIdentifier = "dialog"
        dialog.accessibilityTraits = .modal
        // Its default button every time, whichever was chosen last (one focus move, one utterance).
        dialog.preferredFocusIdentifiers = ["confirm"]
        dialog.addChild(confirm)
        dialog.addChild(cancel)
        dialog.isHidden = true
        // The action first, then the dialog closes onto where it leads: one announcement and one
        // focus move for a listener, none of them cut off by the other.
        confirm.onChoose = { [unowned self] in
            let action = self.onConfirm
            action?()
            self.closeDialog()
        }
        cancel.onChoose = { [unowned self] in self.closeDialog() }
        _ = dialog.onExitCommand { [unowned self] in self.closeDialog() }
    }

    private func buildHelp() {
        root.addChild(helpPanel)
        helpPanel.focusGroupIdentifier = "help"
        helpPanel.accessibilityLabel = "Help: the keys"
        helpPanel.accessibilityTraits = .modal
        // Spoken when it opens: the system keys (its last lines), then how to hear the rest.
        helpPanel.accessibilityHint = "Escape or F1 closes; Control Alt K reads the key commands aloud"
        helpPanel.addChild(helpClose)
        helpPanel.isHidden = true
        helpClose.onChoose = { [unowned self] in self.closeHelp() }
        _ = helpPanel.onExitCommand { [unowned self] in self.closeHelp() }
        // A command the help lists for the place it was opened from closes the help, then its
        // action goes up the chain from there (as on iPadOS, where the overlay's commands run).
        helpPanel.onAction = { [unowned self] action, _ in
            self.closeHelp()
            self.window.sendAction(action)
        }
    }

    private func buildCommands() {
        // The help overlay heads each group of commands with its declarer's title.
        root.discoverabilityTitle = "Anywhere"
        list.discoverabilityTitle = "In the directory"
        search.discoverabilityTitle = "In the search field"
        root.keyCommands = [
            KeyCommand(.f1, action: "toggleHelp", title: "Show or hide this help"),
            KeyCommand("f", modifierFlags: .control, action: "openSearch", title: "Search the directory"),
            KeyCommand(.home, modifierFlags: .alternate, action: "goHome", title: "Go to the home screen"),
        ]
        root.performableActions = Self.rootActions
        root.onAction = { [unowned self] action, _ in
            // The dialog is modal: the screen behind it does not change under it.
            guard !self.isDialogOpen || action == "toggleHelp" else { return }
            // A shortcut the help lists closes the help and does what it says.
            if action != "toggleHelp" { self.closeHelp() }
            switch action {
            case "toggleHelp": self.showsHelp.toggle()
            case "openSearch": self.openSearch()
            case "goHome":
                self.show(.home)
                _ = self.focusSystem?.requestFocus(on: self.home)
            default: break
            }
        }
        list.keyCommands = [
            KeyCommand(.home, action: "firstRow", title: "First row"),
            KeyCommand(.end, action: "lastRow", title: "Last row"),
        ]
        list.performableActions = ["firstRow", "lastRow"]
        list.onAction = { [unowned self] action, _ in
            let visible = self.rows.filter { !$0.isHidden }
            if let row = action == "firstRow" ? visible.first : visible.last {
                _ = self.focusSystem?.requestFocus(on: row)
            }
        }
    }

    var focusSystem: FocusSystem? { window.focusSystem }

    // MARK: Behaviour

    /// Shows a screen in the content area; the others are hidden from focus and from drawing.
    func show(_ screen: Screen) {
        // Leaving the form forgets what was typed: the next person must not find a name and PIN.
        if self.screen == .checkIn && screen != .checkIn { clearForm() }
        self.screen = screen
        content.accessibilityLabel = screen.rawValue
        for (each, button) in navigation {
            button.accessibilityTraits = each == screen ? [.button, .selected] : .button
            button.isSelected = each == screen  // drawn in the graphical face; the same traits
        }
        content.setNeedsDisplay()
        home.isHidden = screen != .home
        directory.isHidden = screen != .directory
        form.isHidden = screen != .checkIn
        content.preferredFocusIdentifiers = [
            screen == .home ? "tile-checkin" : screen == .directory ? (isSearchOpen ? "search" : "row1") : "name"
        ]
    }

    private func clearForm() {
        nameField.text = ""
        pinField.text = ""
        consent.isChecked = false
    }

    private func open(tile: String) {
        switch tile {
        case "checkin":
            show(.checkIn)
            _ = focusSystem?.requestFocus(on: nameField)
        case "find":
            show(.directory)
            focusResults()
        case "hours":
            present(sentences.hours, confirmTitle: sentences.ok)
        case "pharmacy":
            present(sentences.pharmacy, confirmTitle: sentences.ok)
        case "parking":
            present(sentences.parking, confirmTitle: sentences.ok)
        default:
            showsHelp = true
        }
    }

    func openSearch() {
        // The field shows first: focus leaving the hidden home screen goes straight to it (one
        // move, one utterance), not through the first row.
        isSearchOpen = true
        show(.directory)
        relayout()
        _ = focusSystem?.requestFocus(on: search)
    }

    private func closeSearch() {
        search.text = ""
        filter("")
        isSearchOpen = false
        relayout()
        focusResults()
    }

    private func focusResults() {
        guard let first = rows.first(where: { !$0.isHidden }) else {
            say(sentences.noMatch(search.text))
            return
        }
        if !search.text.isEmpty {
            let matches = rows.count(where: { !$0.isHidden })
            say(sentences.results(matches))
        }
        let target = selectedRow.flatMap { $0.isHidden ? nil : $0 } ?? first
        _ = focusSystem?.requestFocus(on: target)
    }

    private func filter(_ text: String) {
        let query = text.lowercased()
        var matches = 0
        for row in rows {
            row.isHidden = !query.isEmpty && !row.entry.line.lowercased().contains(query)
            if !row.isHidden { matches += 1 }
        }
        scrollTop = 0
        // The graphical face's heading counts the rows shown: it changes with them.
        if let appearance { root.setNeedsDisplay(contentHeadingFrame(appearance.metrics)) }
        message = query.isEmpty ? "" : sentences.searchCount(matches, rows.count, text)
        // The count, for a listener who asks where they are (and on the way to the results).
        search.accessibilityValue = query.isEmpty ? nil : sentences.searchValue(text, matches, rows.count)
        relayout()
    }

    private func submitForm() {
        let name = nameField.text.trimmingSpaces
        if name.isEmpty {
            say(sentences.nameFirst)
            _ = focusSystem?.requestFocus(on: nameField)
        } else if pinField.text.count < 4 {
            say(sentences.pinDigits)
            _ = focusSystem?.requestFocus(on: pinField)
        } else if !consent.isChecked {
            say(sentences.consentNeeded)
            _ = focusSystem?.requestFocus(on: consent)
        } else {
            message = sentences.confirmOrCancel
            let checkedIn = sentences.checkedIn(name)
            present(sentences.confirmCheckIn(name), confirmTitle: sentences.confirm) { [unowned self] in
                self.say(checkedIn)
                // The dialog closes onto the home screen's first tile (its preferred item).
                self.show(.home)
            }
        }
    }

    /// Opens the dialog: focus is trapped inside until it closes, then goes back where it was.
    func present(_ text: String, confirmTitle: String, onConfirm: (() -> Void)? = nil) {
        dialogText = text
        dialog.accessibilityLabel = text
        confirm.title = confirmTitle
        cancel.isHidden = onConfirm == nil
        self.onConfirm = onConfirm
        dialog.isHidden = false
        // Behind the dialog the screen does not change: only the help stays available (the
        // others show greyed in it).
        root.performableActions = ["toggleHelp"]
        relayout()
        focusSystem?.presentModal(dialog)
    }

    private func closeDialog() {
        guard !dialog.isHidden else { return }
        dialog.isHidden = true
        root.performableActions = Self.rootActions
        onConfirm = nil
        focusSystem?.dismissModal(dialog)
    }

    var isDialogOpen: Bool { !dialog.isHidden }

    /// Opens the help overlay on the key commands active where focus is, and traps focus on its
    /// Close button until it closes (the arrows and Tab do not move focus behind it).
    private func openHelp() {
        guard helpPanel.isHidden else { return }
        helpCommands = activeKeyCommands()
        // Focus moves to Close, off the chain of the responders below the root: the help panel
        // takes their enabled commands for as long as it shows. The root's stay on the chain.
        let forwarded = helpCommands.flatMap { group -> [KeyCommand] in
            guard case .responder(let reference) = group.source, !reference.refers(to: root) else { return [] }
            return group.commands.filter(\.isEnabled).map(\.command)
        }
        helpPanel.keyCommands = forwarded
        helpPanel.performableActions = Set(forwarded.map(\.action))
        helpPanel.accessibilityValue = Self.systemKeys.map { "\($0.shortcut): \($0.text)" }.joined(separator: ". ")
        helpPanel.isHidden = false
        relayout()
        focusSystem?.presentModal(helpPanel)
        _ = focusSystem?.requestFocus(on: helpClose)
    }

    private func closeHelp() {
        guard !helpPanel.isHidden else { return }
        helpPanel.isHidden = true
        focusSystem?.dismissModal(helpPanel)
    }

    /// The help overlay's lines: each group's heading and commands, then the system keys.
    var helpLines: [(text: String, shortcut: String, isHeading: Bool, isEnabled: Bool)] {
        var lines: [(String, String, Bool, Bool)] = []
        for group in helpCommands {
            lines.append((group.title, "", true, true))
            for command in group.commands {
                lines.append(("  " + command.title, command.shortcut, false, command.isEnabled))
            }
        }
        lines.append(("System", "", true, true))
        for key in Self.systemKeys { lines.append(("  " + key.text, key.shortcut, false, true)) }
        return lines
    }

    /// The keys the focus system answers, as the help lists and says them.
    static let systemKeys: [(text: String, shortcut: String)] = [
        ("Move between the menu and the content", "Tab"), ("Move inside an area", "Arrows"), ("Choose", "Return"),
    ]

    private func reveal(_ row: Row) {
        if appearance != nil { return revealInPoints(row) }
        let top = listTop
        let y = Int(row.frame.minY) - top
        let visible = listRows
        if y < scrollTop { scrollTop = y }
        if y >= scrollTop + visible { scrollTop = y - visible + 1 }
    }

    /// Lays the nodes out again for the screen they were last laid out for, in cells or in points.
    func relayout() {
        if let appearance {
            layout(points: appearance.metrics.size)
        } else {
            layout(columns: size.columns, rows: size.rows)
        }
    }

    // MARK: Layout (terminal cells)

    /// The first row of the list area, and how many rows it shows.
    var listTop: Int { search.isHidden ? 3 : 5 }
    var listRows: Int { max(1, size.rows - 4 - listTop) }

    /// Places every node for a terminal of this size (the design needs 80x24 at least).
    func layout(columns: Int, rows: Int) {
        size = (max(columns, Self.minimumSize.columns), max(rows, Self.minimumSize.rows))
        let width = Double(size.columns)
        let bodyBottom = Double(size.rows - 4)
        root.frame = Rect(x: 0, y: 0, width: width, height: Double(size.rows))
        sidebar.frame = Rect(x: 0, y: 1, width: 20, height: bodyBottom - 1)
        for (index, screen) in Screen.allCases.enumerated() {
            navigation[screen]?.frame = Rect(x: 2, y: Double(3 + index * 2), width: 16, height: 1)
        }
        let left = 22.0
        let inner = width - left - 2
        content.frame = Rect(x: 20, y: 1, width: width - 20, height: bodyBottom - 1)
        for node in [home, directory, form] { node.frame = content.frame }
        // Tiles: three columns, two rows.
        let tileWidth = ((inner - 4) / 3).rounded(.down)
        for (index, tile) in tiles.enumerated() {
            tile.frame = Rect(
                x: left + Double(index % 3) * (tileWidth + 2), y: Double(3 + (index / 3) * 6), width: tileWidth,
                height: 5)
        }
        search.frame = Rect(x: left, y: 3, width: inner, height: 1)
        list.frame = Rect(x: left, y: Double(listTop), width: inner, height: Double(listRows))
        var y = listTop
        for row in self.rows where !row.isHidden {
            row.frame = Rect(x: left, y: Double(y), width: inner, height: 1)
            y += 1
        }
        nameField.frame = Rect(x: left, y: 4, width: 40, height: 1)
        pinField.frame = Rect(x: left, y: 6, width: 40, height: 1)
        consent.frame = Rect(x: left, y: 8, width: inner, height: 1)
        submit.frame = Rect(x: left, y: 10, width: 14, height: 1)
        let dialogWidth = 56.0
        let dialogLeft = ((width - dialogWidth) / 2).rounded(.down)
        let dialogTop = ((Double(size.rows) - 8) / 2).rounded(.down)
        dialog.frame = Rect(x: dialogLeft, y: dialogTop, width: dialogWidth, height: 8)
        confirm.frame = Rect(x: dialogLeft + 8, y: dialogTop + 5, width: 14, height: 1)
        cancel.frame = Rect(x: dialogLeft + dialogWidth - 22, y: dialogTop + 5, width: 14, height: 1)
        // The help overlay: its lines, a blank line and the Close button inside a double box.
        // Two columns, wider, when the lines do not fit in one (the status lines stay visible).
        let twoColumns = helpLines.count > size.rows - 10
        let helpWidth = twoColumns ? min(size.columns - 4, 96) : min(size.columns - 8, 64)
        let helpHeight = min(size.rows - 5, (twoColumns ? (helpLines.count + 1) / 2 : helpLines.count) + 5)
        let helpLeft = (size.columns - helpWidth) / 2
        let helpTop = max(1, (size.rows - helpHeight) / 2)
        helpPanel.frame = Rect(
            x: Double(helpLeft), y: Double(helpTop), width: Double(helpWidth), height: Double(helpHeight))
        helpClose.frame = Rect(x: Double(helpLeft + 2), y: Double(helpTop + helpHeight - 2), width: 9, height: 1)
        // A taller terminal shows more rows: no blank space under the last one while rows above
        // are scrolled away.
        scrollTop = max(0, min(scrollTop, self.rows.count(where: { !$0.isHidden }) - listRows))
        if let selectedRow, !selectedRow.isHidden { reveal(selectedRow) }
    }
}

extension String {
    var replacingSpaces: String { String(map { $0 == " " ? "-" : $0 }) }
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
