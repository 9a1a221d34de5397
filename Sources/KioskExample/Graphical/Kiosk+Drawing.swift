import Graphics
import ResponderChain

// What the kiosk's containers draw in the graphical face, under their children: the header and the
// message line (the root), the menu's card, each screen's heading, the directory's card, the dialog
// and the help over a scrim. Their nodes are the terminal face's; only the drawing is new.

extension Kiosk {
    /// Gives each container its drawing.
    func setUpDrawing() {
        root.drawing = { [unowned self] context, _ in self.drawRoot(context) }
        sidebar.drawing = { [unowned self] context, _ in self.drawSidebar(context) }
        content.drawing = { [unowned self] context, _ in self.drawContentHeading(context) }
        form.drawing = { [unowned self] context, _ in self.drawFormNote(context) }
        list.drawing = { [unowned self] context, _ in self.drawList(context) }
        dialog.drawing = { [unowned self] context, _ in self.drawDialog(context) }
        helpPanel.drawing = { [unowned self] context, _ in self.drawHelp(context) }
    }

    private var style: KioskAppearance {
        guard let appearance else { preconditionFailure("the graphical face draws with an appearance") }
        return appearance
    }

    // MARK: The header and the message line

    private func drawRoot(_ context: any GraphicsContext) {
        drawHeader(context)
        drawFooter(context)
    }

    /// The brand's band: the logo, the clinic's name over the tagline, the welcome at the other end.
    private func drawHeader(_ context: any GraphicsContext) {
        let appearance = style
        let metrics = appearance.metrics
        let unit = metrics.unit
        let language = appearance.language
        let direction = context.layoutDirection
        let header = Rect(x: 0, y: 0, width: metrics.size.width, height: metrics.headerHeight)
        context.fill(
            .rect(header),
            with: .linearGradient(.vertical(in: header, from: appearance.header.top, to: appearance.header.bottom)))
        let inner = header.insetBy(dx: metrics.margin, dy: 0)
        let logoSide = (metrics.headerHeight - 2 * (14 * unit)).rounded()
        context.draw(Artwork.logo, in: inner.leading(logoSide, direction).centeredSquare(logoSide), mode: .fit)
        let words = inner.droppingLeading(logoSide + (18 * unit).rounded(), direction)
        let half = (words.width * 0.55).rounded()
        let titles = words.leading(half, direction)
        let middle = header.midY
        context.draw(
            language.clinic, in: Rect(x: titles.minX, y: header.minY, width: titles.width, height: middle + 4 * unit),
            style: TextStyle(font: appearance.font(34, .bold), color: .white, verticalAlignment: .bottom))
        context.draw(
            language.tagline,
            in: Rect(
                x: titles.minX, y: middle + 6 * unit, width: titles.width, height: header.maxY - middle - 6 * unit),
            style: TextStyle(font: appearance.font(19), color: Color.white.opacity(0.88), verticalAlignment: .top))
        context.draw(
            language.greeting, in: words.trailing(words.width - half - metrics.gap, direction),
            style: TextStyle(font: appearance.font(20, .medium), color: Color.white.opacity(0.92), alignment: .trailing)
        )
    }

    /// The message line, and F1 for the help at its end.
    private func drawFooter(_ context: any GraphicsContext) {
        let appearance = style
        let metrics = appearance.metrics
        let unit = metrics.unit
        let direction = context.layoutDirection
        let footer = footerFrame(metrics)
        context.fill(.rect(footer), appearance.theme.surface)
        context.fill(.rect(Rect(x: 0, y: footer.minY, width: footer.width, height: 1)), appearance.theme.outline)
        let line = footer.insetBy(dx: metrics.margin, dy: 0)
        let iconSide = (28 * unit).rounded()
        context.draw(
            appearance.brandIcon(.info), in: line.leading(iconSide, direction).centeredSquare(iconSide), mode: .fit)
        let hintWidth = (170 * unit).rounded()
        let text = line.droppingLeading(iconSide + (14 * unit).rounded(), direction)
        context.draw(
            message, in: text.leading(text.width - hintWidth, direction),
            style: TextStyle(font: appearance.font(21), color: appearance.theme.text))
        // The keycap, then what it does, at the trailing end.
        let hint = line.trailing(hintWidth, direction)
        let wordsStyle = TextStyle(
            font: appearance.font(19), color: appearance.theme.secondaryText, alignment: .trailing)
        let capWidth = (44 * unit).rounded()
        let capHeight = (32 * unit).rounded()
        let words = appearance.language.help
        let wordsWidth = min(
            hint.width - capWidth - 10 * unit, context.measure(words, style: wordsStyle, width: nil).width)
        context.draw(words, in: hint.trailing(wordsWidth, direction), style: wordsStyle)
        let cap = hint.trailing(wordsWidth + 10 * unit + capWidth, direction).leading(capWidth, direction)
        drawKeycap(
            "F1", in: Rect(x: cap.minX, y: hint.midY - capHeight / 2, width: capWidth, height: capHeight),
            context: context)
    }

    /// A key's name in a keycap.
    private func drawKeycap(_ key: String, in cap: Rect, context: any GraphicsContext) {
        let appearance = style
        let unit = appearance.metrics.unit
        context.fill(.roundedRect(cap, cornerRadius: 7 * unit), appearance.theme.background)
        context.stroke(
            .roundedRect(cap.insetBy(dx: 0.5, dy: 0.5), cornerRadius: 7 * unit), appearance.theme.outline, lineWidth: 1)
        context.fill(
            .rect(Rect(x: cap.minX + 4, y: cap.maxY - 2, width: cap.width - 8, height: 1)), appearance.theme.outline)
        context.draw(
            key, in: cap,
            style: TextStyle(font: appearance.font(16, .semibold), color: appearance.theme.text, alignment: .center))
    }

    // MARK: The menu and the content

    private func drawSidebar(_ context: any GraphicsContext) {
        let appearance = style
        let metrics = appearance.metrics
        let frame = sidebar.frame
        drawCard(frame, context: context)
        let heading = Rect(x: frame.minX, y: frame.minY, width: frame.width, height: sidebarHeadingHeight(metrics))
            .insetBy(dx: (28 * metrics.unit).rounded(), dy: 0)
        context.draw(
            appearance.language.menu, in: heading,
            style: TextStyle(font: appearance.font(18, .semibold), color: appearance.theme.secondaryText))
        // At its foot, where to find a person, when there is room under the entries.
        let entriesBottom = navigation.values.map(\.frame.maxY).max() ?? frame.minY
        let inner = frame.insetBy(dx: (24 * metrics.unit).rounded(), dy: (22 * metrics.unit).rounded())
        let noteHeight = (84 * metrics.unit).rounded()
        guard inner.maxY - noteHeight > entriesBottom + metrics.gap else { return }
        let note = Rect(x: inner.minX, y: inner.maxY - noteHeight, width: inner.width, height: noteHeight)
        let side = (28 * metrics.unit).rounded()
        let direction = context.layoutDirection
        let icon = note.leading(side, direction)
        context.draw(
            appearance.mutedIcon(.help), in: Rect(x: icon.minX, y: note.minY, width: side, height: side), mode: .fit)
        context.draw(
            appearance.language.menuNote, in: note.droppingLeading(side + (12 * metrics.unit).rounded(), direction),
            style: TextStyle(
                font: appearance.font(18), color: appearance.theme.secondaryText, verticalAlignment: .top, lineLimit: 3)
        )
    }

    /// A note under the form, beside the number pad or alone; none while the letters are up.
    private func drawFormNote(_ context: any GraphicsContext) {
        let appearance = style
        let metrics = appearance.metrics
        let unit = metrics.unit
        let direction = context.layoutDirection
        var area = form.frame
        let top = consent.frame.maxY + metrics.gap * 1.25
        if let keyboard, !keyboard.isHidden {
            guard keyboard.page == .numberPad else { return }
            area = area.leading(area.width - keyboard.frame.width - metrics.gap, direction)
        }
        let padding = (18 * unit).rounded()
        let side = (30 * unit).rounded()
        let textWidth = area.width - 2 * padding - side - (14 * unit).rounded()
        guard textWidth > 160 * unit else { return }
        let style = TextStyle(
            font: appearance.font(20), color: appearance.theme.text, verticalAlignment: .top, lineLimit: 3)
        let text = appearance.language.checkInIntro
        let height = max(side, context.measure(text, style: style, width: textWidth).height) + 2 * padding
        guard top + height <= form.frame.maxY else { return }
        let note = Rect(x: area.minX, y: top, width: area.width, height: height.rounded(.up))
        context.fill(.roundedRect(note, cornerRadius: metrics.cornerRadius), appearance.theme.accent.opacity(0.08))
        let inner = note.insetBy(dx: padding, dy: padding)
        let icon = inner.leading(side, direction)
        context.draw(
            appearance.brandIcon(.info), in: Rect(x: icon.minX, y: inner.minY, width: side, height: side), mode: .fit)
        context.draw(text, in: inner.droppingLeading(side + (14 * unit).rounded(), direction), style: style)
    }

    private func drawContentHeading(_ context: any GraphicsContext) {
        guard showsContentHeading else { return }
        let appearance = style
        let metrics = appearance.metrics
        let language = appearance.language
        let band = contentHeadingFrame(metrics)
        let heading: String
        var caption: String?
        switch screen {
        case .home: heading = language.homeHeading
        case .directory:
            heading = language.directoryHeading
            caption = language.count(rows.count(where: { !$0.isHidden }))
        case .checkIn: heading = language.checkInHeading
        }
        let headingStyle = TextStyle(font: appearance.font(32, .bold), color: appearance.theme.text)
        context.draw(heading, in: band, style: headingStyle)
        if let caption {
            context.draw(
                caption, in: band,
                style: TextStyle(
                    font: appearance.font(20), color: appearance.theme.secondaryText, alignment: .trailing))
        }
    }

    private func drawList(_ context: any GraphicsContext) {
        let appearance = style
        let frame = list.frame
        guard frame.height > 0 else { return }
        drawCard(frame, context: context)
        let shown = rows.count(where: { !$0.isHidden })
        guard shown > visibleRows else { return }
        // Where the rows shown are among all: a thin bar at the trailing edge.
        let track = frame.insetBy(dx: 0, dy: 14).trailing(6, context.layoutDirection).offsetBy(
            dx: context.layoutDirection == .rightToLeft ? 4 : -4, dy: 0)
        let length = max(24, track.height * Double(visibleRows) / Double(shown))
        let offset = (track.height - length) * Double(scrollTop) / Double(max(1, shown - visibleRows))
        context.fill(.roundedRect(track, cornerRadius: 3), appearance.theme.outline.opacity(0.45))
        context.fill(
            .roundedRect(
                Rect(x: track.minX, y: track.minY + offset, width: track.width, height: length), cornerRadius: 3),
            appearance.theme.secondaryText.opacity(0.7))
    }

    /// A white card with a soft shadow and a hairline.
    private func drawCard(_ frame: Rect, context: any GraphicsContext) {
        let appearance = style
        let radius = appearance.metrics.cornerRadius
        context.withSavedState {
            context.setShadow(Shadow(color: Color(hex: 0x0B2A2E, alpha: 0.08), offset: Point(x: 0, y: 2), radius: 8))
            context.fill(.roundedRect(frame, cornerRadius: radius), appearance.theme.surface)
        }
        context.stroke(
            .roundedRect(frame.insetBy(dx: 0.5, dy: 0.5), cornerRadius: radius), appearance.theme.outline.opacity(0.7),
            lineWidth: 1)
    }

    // MARK: The dialog and the help

    private func drawScrim(_ context: any GraphicsContext) {
        let size = style.metrics.size
        context.fill(.rect(Rect(x: 0, y: 0, width: size.width, height: size.height)), style.scrim)
    }

    private func drawFloatingCard(_ frame: Rect, context: any GraphicsContext) {
        let appearance = style
        let radius = appearance.metrics.cornerRadius * 1.2
        context.withSavedState {
            context.setShadow(Shadow(color: Color.black.opacity(0.35), offset: Point(x: 0, y: 16), radius: 40))
            context.fill(.roundedRect(frame, cornerRadius: radius), appearance.theme.surface)
        }
    }

    private func drawDialog(_ context: any GraphicsContext) {
        let appearance = style
        let metrics = appearance.metrics
        let unit = metrics.unit
        let frame = dialog.frame
        drawScrim(context)
        drawFloatingCard(frame, context: context)
        let padding = cardPadding(metrics)
        let inner = frame.insetBy(dx: padding, dy: padding)
        let direction = context.layoutDirection
        let badgeSide = (52 * unit).rounded()
        let badge = Rect(
            x: inner.leading(badgeSide, direction).minX, y: inner.minY, width: badgeSide, height: badgeSide)
        context.fill(.ellipse(in: badge), appearance.theme.accent.opacity(0.12))
        context.draw(appearance.brandIcon(.info), in: badge.centeredSquare(badgeSide * 0.62), mode: .fit)
        let titleRect = Rect(x: inner.minX, y: inner.minY, width: inner.width, height: badgeSide)
            .droppingLeading(badgeSide + (18 * unit).rounded(), direction)
        context.draw(
            appearance.language.dialogTitle, in: titleRect,
            style: TextStyle(font: appearance.font(30, .bold), color: appearance.theme.text))
        let textTop = badge.maxY + (20 * unit).rounded()
        let textBottom = confirm.frame.minY - (20 * unit).rounded()
        context.draw(
            dialogText, in: Rect(x: inner.minX, y: textTop, width: inner.width, height: max(0, textBottom - textTop)),
            style: TextStyle(
                font: appearance.font(25), color: appearance.theme.text, verticalAlignment: .top, lineLimit: 3))
    }

    private func drawHelp(_ context: any GraphicsContext) {
        let appearance = style
        let metrics = appearance.metrics
        let unit = metrics.unit
        let theme = appearance.theme
        let frame = helpPanel.frame
        drawScrim(context)
        drawFloatingCard(frame, context: context)
        let padding = cardPadding(metrics)
        let inner = frame.insetBy(dx: padding, dy: padding)
        let headingHeight = (48 * unit).rounded()
        let heading = Rect(x: inner.minX, y: inner.minY, width: inner.width, height: headingHeight)
        context.draw(
            appearance.language.helpHeading, in: heading,
            style: TextStyle(font: appearance.font(30, .bold), color: theme.text))
        context.draw(
            appearance.language.helpHint, in: heading,
            style: TextStyle(font: appearance.font(19), color: theme.secondaryText, alignment: .trailing))
        let top = heading.maxY + (16 * unit).rounded()
        let bottom = helpClose.frame.minY - (16 * unit).rounded()
        let lineHeight = helpLineHeight(metrics)
        let lines = helpLines
        let perColumn = max(1, Int((bottom - top + 1) / lineHeight))
        let columns = lines.count > perColumn ? 2 : 1
        let columnGap = (40 * unit).rounded()
        let columnWidth = ((inner.width - Double(columns - 1) * columnGap) / Double(columns)).rounded(.down)
        let direction = context.layoutDirection
        for (index, line) in lines.enumerated() {
            let column = index / perColumn
            guard column < columns else { break }
            let row = index % perColumn
            let columnRect = inner.droppingLeading(Double(column) * (columnWidth + columnGap), direction)
                .leading(columnWidth, direction)
            let rect = Rect(
                x: columnRect.minX, y: top + Double(row) * lineHeight, width: columnWidth, height: lineHeight)
            if line.isHeading {
                context.draw(
                    line.text, in: rect,
                    style: TextStyle(
                        font: appearance.font(19, .bold), color: theme.accent, verticalAlignment: .bottom))
                continue
            }
            let capWidth = min(
                columnWidth * 0.45, max((48 * unit).rounded(), Double(line.shortcut.count) * 12 * unit + 20))
            let ink = line.isEnabled ? theme.text : theme.secondaryText.opacity(0.7)
            context.draw(
                String(line.text.drop(while: { $0 == " " })),
                in: rect.leading(columnWidth - capWidth - 12, direction),
                style: TextStyle(font: appearance.font(20), color: ink))
            let capHeight = (30 * unit).rounded()
            let cap = rect.trailing(capWidth, direction)
            drawKeycap(
                line.shortcut, in: Rect(x: cap.minX, y: cap.midY - capHeight / 2, width: capWidth, height: capHeight),
                context: context)
        }
    }
}
