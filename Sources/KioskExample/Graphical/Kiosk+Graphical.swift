import Graphics
import ResponderChain

// The kiosk's graphical face: the same tree, laid out in points and drawn by its nodes, with an
// on-screen keyboard for the name, the PIN and the search when no keyboard is attached.

extension Kiosk {
    /// Turns the graphical face on, for an app that draws nodes (a Wayland window, a display): frames
    /// in points for a screen of this size, brand colours on the window, the widgets and containers
    /// drawing themselves, 60-point targets (48 on a screen smaller than 1280x720 points). The
    /// terminal face is not used again.
    ///
    /// - Parameters:
    ///   - size: The screen's size in points.
    ///   - language: The words; right-to-left languages mirror the screen.
    func useGraphicalFace(size: Size, language: KioskLanguage = .english) {
        let appearance = KioskAppearance(language: language, size: size)
        self.appearance = appearance
        window.backgroundColor = appearance.theme.background
        window.tintColor = appearance.theme.focus
        window.layoutDirection = language.isRightToLeft ? .rightToLeft : .leftToRight
        for button in navigation.values + tiles + [submit, confirm, cancel, helpClose] {
            button.appearance = appearance
            button.cornerRadius = appearance.metrics.cornerRadius
        }
        for (screen, button) in navigation {
            button.icon = [.home: .home, .directory: .directory, .checkIn: .checkIn][screen]
            button.title = language.screens[screen] ?? button.title
        }
        let icons: [String: Artwork.Icon] = [
            "checkin": .checkIn, "find": .directory, "hours": .hours, "pharmacy": .pharmacy, "parking": .parking,
            "help": .help,
        ]
        for tile in tiles {
            tile.icon = icons[tile.tileName]
            if let words = language.tiles[tile.tileName] { (tile.title, tile.subtitle) = words }
            // tvOS's lift: the tile grows over a soft shadow; its own outline says which, in colour.
            tile.focusEffect = .lift(
                scale: 1.04,
                shadow: Shadow(
                    color: Color(hex: 0x0B2A2E, alpha: 0.22), offset: Point(x: 0, y: 10), radius: 22))
            tile.drawingOutset = 14
        }
        cancel.emphasis = .secondary
        cancel.title = language.cancel
        submit.title = language.submit
        helpClose.title = language.close
        for field in [nameField, pinField, search] { field.appearance = appearance }
        nameField.label = language.nameLabel
        nameField.placeholder = language.namePlaceholder
        pinField.label = language.pinLabel
        pinField.placeholder = language.pinPlaceholder
        // The search box says what it is by its placeholder and its magnifier, without a label.
        search.label = ""
        search.placeholder = language.searchPlaceholder
        search.trailingIcon = .search
        consent.appearance = appearance
        consent.title = language.consent
        consent.cornerRadius = appearance.metrics.cornerRadius * 0.7
        for row in rows {
            row.appearance = appearance
            row.cornerRadius = 12
        }
        if message == KioskLanguage.english.welcome { message = language.welcome }
        // A finger has no Ctrl-F: the search box is always on the directory screen.
        search.isHidden = false
        setUpDrawing()
        layout(points: size)
    }

    /// The on-screen keyboard for the name, the PIN (its number pad) and the search, shown when one of
    /// them becomes first responder and no keyboard is attached; Tab goes from the fields to the
    /// keyboard, then to the consent and Check in.
    ///
    /// - Parameters:
    ///   - keyboard: The keyboard, made with the app's input sink and a device of its own.
    ///   - focusSystem: The app's focus system.
    func attachKeyboard(_ keyboard: OnScreenKeyboard, focusSystem: FocusSystem) {
        precondition(appearance != nil, "attachKeyboard(_:focusSystem:) needs the graphical face")
        self.keyboard = keyboard
        keyboard.cornerRadius = appearance?.metrics.cornerRadius ?? 0
        content.addChild(keyboard)
        // The app's order: the fields, the keyboard, then the form's own stop (consent, Check in);
        // on the directory screen the search, the keyboard, then the rows.
        nameField.focusTraversalOrder = 1
        search.focusTraversalOrder = 1
        pinField.focusTraversalOrder = 2
        keyboard.focusTraversalOrder = 3
        consent.focusTraversalOrder = 4
        submit.focusTraversalOrder = 5
        keyboard.onVisibilityChange = { [unowned self] _ in
            self.relayout()
            self.form.setNeedsDisplay()  // its note makes room for the keyboard
        }
        keyboard.attach(to: focusSystem)
        // After the keyboard's own observer: a move from the name to the PIN turns its page into
        // the number pad, which is laid out narrower.
        var page = keyboard.page
        _ = focusSystem.addObserver { [weak self, unowned keyboard] _ in
            guard keyboard.page != page else { return }
            page = keyboard.page
            self?.relayout()
            self?.form.setNeedsDisplay()
        }
        relayout()
    }

    // MARK: Layout (points)

    /// Places every node for a screen of this size in points: the header and the footer across, the
    /// menu at the leading side, the screen's content beside it (the home tiles in a 3x2 grid, the
    /// directory's search over its list, the form over the on-screen keyboard), the dialog and the
    /// help centred over everything. Right-to-left languages get the mirror image.
    ///
    /// - Parameter size: The screen's size in points.
    func layout(points size: Size) {
        guard let appearance else { return }
        appearance.resize(to: size)
        let metrics = appearance.metrics
        window.minimumTargetSize = metrics.minimumTarget
        let placer = Placer(width: size.width, mirrored: window.layoutDirection == .rightToLeft)
        placer.place(root, Rect(x: 0, y: 0, width: size.width, height: size.height))
        let body = metrics.body
        let sidebarFrame = Rect(x: body.minX, y: body.minY, width: metrics.sidebarWidth, height: body.height)
        layOutMenu(in: sidebarFrame, metrics: metrics, placer: placer)
        let contentFrame = Rect(
            x: sidebarFrame.maxX + metrics.margin, y: body.minY, width: body.maxX - sidebarFrame.maxX - metrics.margin,
            height: body.height)
        for node in [content, home, directory, form] { placer.place(node, contentFrame) }
        // The heading gives its room to the form on a short screen while the keyboard shows.
        let keyboardShows = keyboard.map { !$0.isHidden } ?? false
        showsContentHeading = !(keyboardShows && screen == .checkIn && body.height < 560)
        let top = contentFrame.minY + (showsContentHeading ? contentHeadingHeight(metrics) : 0)
        let area = Rect(x: contentFrame.minX, y: top, width: contentFrame.width, height: contentFrame.maxY - top)
        layOutHome(in: area, metrics: metrics, placer: placer)
        let formBottom = layOutForm(in: area, metrics: metrics, placer: placer)
        let keyboardFrame = dockedKeyboardFrame(
            in: area, bottom: contentFrame.maxY, under: formBottom, metrics: metrics)
        layOutDirectory(
            in: area, bottom: (keyboardFrame?.minY).map { $0 - metrics.gap } ?? contentFrame.maxY, metrics: metrics,
            placer: placer)
        if let keyboard, let keyboardFrame {
            placer.place(keyboard, keyboardFrame)
            keyboard.layoutKeys()
        }
        layOutDialog(metrics: metrics, placer: placer)
        layOutHelp(metrics: metrics, placer: placer)
    }

    /// Sets frames given left to right, mirrored for a right-to-left screen; a frame that does not
    /// change is not set again (each set tells the focus system).
    @MainActor struct Placer {
        let width: Double
        let mirrored: Bool

        func place(_ node: FocusNode, _ rect: Rect) {
            let frame =
                mirrored ? Rect(x: width - rect.maxX, y: rect.minY, width: rect.width, height: rect.height) : rect
            if node.frame != frame { node.frame = frame }
        }
    }

    /// The menu's entries, one under the other under its heading.
    private func layOutMenu(in frame: Rect, metrics: KioskMetrics, placer: Placer) {
        placer.place(sidebar, frame)
        let inset = (12 * metrics.unit).rounded()
        var y = frame.minY + sidebarHeadingHeight(metrics)
        for screen in Screen.allCases {
            guard let button = navigation[screen] else { continue }
            placer.place(
                button, Rect(x: frame.minX + inset, y: y, width: frame.width - 2 * inset, height: metrics.controlHeight)
            )
            y += metrics.controlHeight + (8 * metrics.unit).rounded()
        }
    }

    /// The home tiles: three columns, two rows.
    private func layOutHome(in area: Rect, metrics: KioskMetrics, placer: Placer) {
        let spacing = metrics.gap * 1.5
        let tileWidth = ((area.width - 2 * spacing) / 3).rounded(.down)
        let tileHeight = ((area.height - spacing) / 2).rounded(.down)
        for (index, tile) in tiles.enumerated() {
            let (column, row) = (Double(index % 3), Double(index / 3))
            placer.place(
                tile,
                Rect(
                    x: area.minX + column * (tileWidth + spacing), y: area.minY + row * (tileHeight + spacing),
                    width: tileWidth, height: tileHeight))
        }
    }

    /// The form: the name and the PIN side by side, the consent and the button under them. Returns
    /// where the form ends.
    private func layOutForm(in area: Rect, metrics: KioskMetrics, placer: Placer) -> Double {
        let fieldHeight = (metrics.controlHeight * 1.5).rounded()
        let pinWidth = (area.width * 0.36).rounded()
        placer.place(
            nameField, Rect(x: area.minX, y: area.minY, width: area.width - pinWidth - metrics.gap, height: fieldHeight)
        )
        placer.place(pinField, Rect(x: area.maxX - pinWidth, y: area.minY, width: pinWidth, height: fieldHeight))
        let secondRow = (area.minY + fieldHeight + metrics.gap * 1.25).rounded()
        let height =
            showsContentHeading ? max(metrics.controlHeight, (76 * metrics.unit).rounded()) : metrics.controlHeight
        let submitWidth = min(pinWidth, (260 * metrics.unit).rounded())
        placer.place(
            consent, Rect(x: area.minX, y: secondRow, width: area.width - submitWidth - metrics.gap, height: height))
        placer.place(submit, Rect(x: area.maxX - submitWidth, y: secondRow, width: submitWidth, height: height))
        return secondRow + height
    }

    /// Where the keyboard docks while it shows, at the bottom of the content area: the letters across
    /// it, the number pad at the trailing side under the PIN. Under the form it takes the room left
    /// (a little more than it needs, never over the form: on a short screen its keys get shorter, 44
    /// points at least); in the directory what it needs, for the list. `nil` while hidden.
    private func dockedKeyboardFrame(in area: Rect, bottom: Double, under formBottom: Double, metrics: KioskMetrics)
        -> Rect?
    {
        guard let keyboard, !keyboard.isHidden else { return nil }
        let keyHeight = max(metrics.minimumTarget, (64 * metrics.unit).rounded())
        let wanted = 4 * keyHeight + 3 * 8 + 24
        let room = bottom - (formBottom + metrics.gap * 1.25)
        let height = screen == .checkIn ? min(room, (wanted * 1.2).rounded()) : wanted
        let width =
            keyboard.page == .numberPad
            ? min(area.width, max(pinField.frame.width, (440 * metrics.unit).rounded())) : area.width
        // Left to right here: the placer mirrors it.
        return Rect(x: area.maxX - width, y: bottom - height, width: width, height: height)
    }

    /// The directory: the search box, then the list's card as tall as the rows that fit above
    /// `bottom` (the keyboard, or the end of the content area).
    private func layOutDirectory(in area: Rect, bottom: Double, metrics: KioskMetrics, placer: Placer) {
        placer.place(search, Rect(x: area.minX, y: area.minY, width: area.width, height: metrics.controlHeight))
        let listTop = area.minY + metrics.controlHeight + metrics.gap
        let rowHeight = max(metrics.minimumTarget, (66 * metrics.unit).rounded())
        visibleRows = max(1, Int((bottom - listTop - 8) / rowHeight))
        let listFrame = Rect(x: area.minX, y: listTop, width: area.width, height: Double(visibleRows) * rowHeight + 8)
        placer.place(list, listFrame)
        layOutRows(in: listFrame, rowHeight: rowHeight, screenHeight: metrics.size.height, placer: placer)
    }

    /// The dialog: a card in the middle (its badge and title, two lines of text, the buttons side by
    /// side at its bottom), its scrim over the whole screen.
    private func layOutDialog(metrics: KioskMetrics, placer: Placer) {
        let size = metrics.size
        let padding = cardPadding(metrics)
        let width = min((700 * metrics.unit).rounded(), size.width - 2 * metrics.margin)
        let height = min(
            size.height - 2 * metrics.margin, 2 * padding + (52 + 20 + 76 + 24) * metrics.unit + metrics.controlHeight)
        let frame = Rect(
            x: ((size.width - width) / 2).rounded(), y: ((size.height - height) / 2).rounded(), width: width,
            height: height.rounded())
        placer.place(dialog, frame)
        dialog.drawingOutset = max(size.width, size.height)  // the scrim covers the screen
        let buttonWidth = ((width - 2 * padding - metrics.gap) / 2).rounded(.down)
        let buttonTop = frame.maxY - padding - metrics.controlHeight
        placer.place(
            confirm, Rect(x: frame.minX + padding, y: buttonTop, width: buttonWidth, height: metrics.controlHeight))
        placer.place(
            cancel,
            Rect(x: frame.maxX - padding - buttonWidth, y: buttonTop, width: buttonWidth, height: metrics.controlHeight)
        )
    }

    /// The help: a card as tall as its lines need (two columns when one would not fit); Close at its
    /// bottom, at the trailing side.
    private func layOutHelp(metrics: KioskMetrics, placer: Placer) {
        let size = metrics.size
        let padding = cardPadding(metrics)
        let width = min((1000 * metrics.unit).rounded(), size.width - 2 * metrics.margin)
        let chrome = 2 * padding + (48 + 16 + 16) * metrics.unit + metrics.controlHeight
        let lines = Double(helpLines.count)
        let highest = size.height - 2 * metrics.margin
        let oneColumn = chrome + lines * helpLineHeight(metrics)
        let twoColumns = chrome + (lines / 2).rounded(.up) * helpLineHeight(metrics)
        let height = min(highest, oneColumn <= highest ? oneColumn : twoColumns)
        let frame = Rect(
            x: ((size.width - width) / 2).rounded(), y: ((size.height - height) / 2).rounded(), width: width,
            height: height.rounded())
        placer.place(helpPanel, frame)
        helpPanel.drawingOutset = max(size.width, size.height)
        let closeWidth = (200 * metrics.unit).rounded()
        placer.place(
            helpClose,
            Rect(
                x: frame.maxX - padding - closeWidth, y: frame.maxY - padding - metrics.controlHeight,
                width: closeWidth,
                height: metrics.controlHeight))
    }

    /// The directory's rows: those that show, one under the other from the scrolled-to row; those
    /// scrolled away stacked just above the screen or just below it, so that Up and Down still find
    /// them by geometry (the list then scrolls) and no tap can reach them.
    private func layOutRows(in listFrame: Rect, rowHeight: Double, screenHeight: Double, placer: Placer) {
        let shown = rows.filter { !$0.isHidden }
        scrollTop = max(0, min(scrollTop, shown.count - visibleRows))
        // A smaller list keeps the focused row in view.
        if let focused = focusSystem?.focusedItem as? Row, let index = shown.firstIndex(where: { $0 === focused }) {
            if index < scrollTop { scrollTop = index }
            if index >= scrollTop + visibleRows { scrollTop = index - visibleRows + 1 }
        }
        let inner = listFrame.insetBy(dx: 4, dy: 4)
        for (index, row) in shown.enumerated() {
            let y: Double
            if index < scrollTop {
                y = -Double(scrollTop - index) * rowHeight
            } else if index < scrollTop + visibleRows {
                y = inner.minY + Double(index - scrollTop) * rowHeight
            } else {
                y = screenHeight + Double(index - scrollTop - visibleRows) * rowHeight
            }
            placer.place(row, Rect(x: inner.minX, y: y, width: inner.width, height: rowHeight))
        }
    }

    /// Scrolls the graphical face's list so that a row shows.
    func revealInPoints(_ row: Row) {
        let shown = rows.filter { !$0.isHidden }
        guard let index = shown.firstIndex(where: { $0 === row }) else { return }
        var top = scrollTop
        if index < top { top = index }
        if index >= top + visibleRows { top = index - visibleRows + 1 }
        guard top != scrollTop else { return }
        scrollTop = top
        relayout()
    }

    /// The band at the top of the menu that holds its heading.
    func sidebarHeadingHeight(_ metrics: KioskMetrics) -> Double { (60 * metrics.unit).rounded() }
    /// The band at the top of the content area that holds the screen's heading.
    func contentHeadingHeight(_ metrics: KioskMetrics) -> Double { (64 * metrics.unit).rounded() }
    /// The space inside the dialog's and the help's cards.
    func cardPadding(_ metrics: KioskMetrics) -> Double { (32 * metrics.unit).rounded() }
    /// The height of a line of the help.
    func helpLineHeight(_ metrics: KioskMetrics) -> Double { (40 * metrics.unit).rounded() }
    /// The message line at the bottom of the screen.
    /// The band at the top of the content area with the screen's heading and, in the directory, how
    /// many rows the search shows.
    func contentHeadingFrame(_ metrics: KioskMetrics) -> Rect {
        let frame = content.frame
        return Rect(
            x: frame.minX, y: frame.minY, width: frame.width, height: contentHeadingHeight(metrics) - metrics.gap)
    }

    func footerFrame(_ metrics: KioskMetrics) -> Rect {
        Rect(
            x: 0, y: metrics.size.height - metrics.footerHeight, width: metrics.size.width, height: metrics.footerHeight
        )
    }
}
