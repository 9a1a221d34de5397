import ResponderChain
import TerminalCanvas

/// The kiosk drawn on a canvas: the header, the sidebar and the content area (the current focus
/// group's outline heavy), the focused item in inverse video, the status lines (focus, first
/// responder, group), the dialog and the help overlay on top.
@MainActor struct KioskRenderer {
    let kiosk: Kiosk
    let dispatcher: Dispatcher
    let focusSystem: FocusSystem
    /// What the status line says about the input (`keyboards: …`, `terminal`).
    var inputNote: String
    /// The quit command's shortcut (`Ctrl+C` in a terminal), shown in the header; `nil` on a screen,
    /// where no key quits a public kiosk.
    var quitShortcut: String?

    func canvas(columns: Int, rows: Int) -> Canvas {
        var canvas = Canvas(columns: columns, rows: rows)
        let (columns, rows) = (canvas.columns, canvas.rows)  // a huge reported size is capped
        guard columns >= Kiosk.minimumSize.columns, rows >= Kiosk.minimumSize.rows else {
            canvas.wrapped(
                "The kiosk needs a terminal of at least \(Kiosk.minimumSize.columns)x\(Kiosk.minimumSize.rows)"
                    + " (now \(columns)x\(rows)); enlarge it.", 0, 0, width: columns, .heading)
            return canvas
        }
        let group = focusSystem.focusedItem.flatMap { focusSystem.focusGroup(of: $0) }
        drawHeader(&canvas)
        let bottom = rows - 4
        canvas.box(0, 1, 19, bottom, group == "sidebar" ? .heavy : .single, group == "sidebar" ? .group : .faint)
        canvas.text(" Menu ", 2, 1, .heading)
        canvas.box(
            20, 1, columns - 1, bottom, group == "content" ? .heavy : .single, group == "content" ? .group : .faint)
        canvas.text(" \(kiosk.screen.rawValue) ", 22, 1, .heading)
        for screen in Kiosk.Screen.allCases {
            guard let button = kiosk.navigation[screen] else { continue }
            let marker = screen == kiosk.screen ? "▸ " : "  "
            draw(button, label: marker + button.title, &canvas)
        }
        switch kiosk.screen {
        case .home: drawHome(&canvas)
        case .directory: drawDirectory(&canvas, bottom: bottom)
        case .checkIn: drawForm(&canvas)
        }
        drawStatus(&canvas, group: group)
        if kiosk.isDialogOpen { drawDialog(&canvas) }
        if kiosk.showsHelp { drawHelp(&canvas) }
        return canvas
    }

    private func drawHeader(_ canvas: inout Canvas) {
        canvas.fill(0, 0, canvas.columns - 1, 0, " ", .focused)
        canvas.text(" Riverside Clinic · self-service kiosk", 0, 0, .focused)
        let hint = "F1 help" + (quitShortcut.map { " · \($0) quit" } ?? "") + " "
        canvas.text(hint, canvas.columns - Canvas.width(of: hint), 0, .focused)
    }

    private func style(_ node: FocusNode) -> CellStyle {
        node.isFocused ? .focused : .plain
    }

    private func cell(_ value: Double) -> Int { Int(value) }

    private func draw(_ button: Button, label: String? = nil, _ canvas: inout Canvas) {
        let frame = button.frame
        let (x, y, width) = (cell(frame.minX), cell(frame.minY), cell(frame.width))
        switch button.look {
        case .tile:
            let focused = button.isFocused
            canvas.fill(x, y, x + width - 1, y + cell(frame.height) - 1, " ", focused ? .focused : .plain)
            canvas.box(x, y, x + width - 1, y + cell(frame.height) - 1, focused ? .double : .single, style(button))
            canvas.text(button.title, x + 2, y + 1, focused ? .focused : .heading, limit: width - 4)
            canvas.text(button.subtitle, x + 2, y + 3, focused ? .focused : .faint, limit: width - 4)
        case .navigation, .plain:
            let text = label ?? "[ \(button.title) ]"
            canvas.text(text, x, y, style(button), limit: width)
        }
    }

    private func drawHome(_ canvas: inout Canvas) {
        for tile in kiosk.tiles { draw(tile, &canvas) }
        canvas.text("Arrows move between tiles; Return opens one.", 22, 15, .faint)
    }

    private func drawDirectory(_ canvas: inout Canvas, bottom: Int) {
        let left = 22
        let width = canvas.columns - left - 2
        if kiosk.search.isHidden {
            canvas.text("Ctrl-F searches · Up and Down move · Home and End jump", left, 2, .faint)
        } else {
            draw(kiosk.search, &canvas, width: width)
            canvas.text("Down goes to the results · Escape closes the search", left, 4, .faint)
        }
        let top = kiosk.listTop
        let visible = kiosk.rows.filter { !$0.isHidden }
        let shown = visible.dropFirst(kiosk.scrollTop).prefix(kiosk.listRows)
        for (offset, row) in shown.enumerated() {
            let selected = row === kiosk.selectedRow
            let style: CellStyle = row.isFocused ? .focused : selected ? .selected : .plain
            canvas.fill(left, top + offset, left + width - 1, top + offset, " ", style)
            canvas.text(row.entry.line, left + 1, top + offset, style, limit: width - 2)
        }
        if visible.count > kiosk.listRows {
            let last = min(kiosk.scrollTop + kiosk.listRows, visible.count)
            canvas.text(" rows \(kiosk.scrollTop + 1)–\(last) of \(visible.count) ", left, bottom, .heading)
        }
    }

    private func draw(_ field: Field, _ canvas: inout Canvas, width: Int) {
        let frame = field.frame
        let (x, y) = (cell(frame.minX), cell(frame.minY))
        let label = field.label + ": "
        canvas.text(label, x, y, field.isFocused ? .heading : .plain)
        let boxStart = x + Canvas.width(of: label)
        let boxWidth = min(width, cell(frame.width)) - Canvas.width(of: label)
        canvas.fill(boxStart, y, boxStart + boxWidth - 1, y, "_", field.isFocused ? .focused : .faint)
        canvas.text(field.displayText, boxStart, y, field.isFocused ? .focused : .plain, limit: boxWidth)
        if field.isFocused {
            let cursor = boxStart + Canvas.width(of: field.displayText.prefix(field.cursorPosition))
            if cursor < boxStart + boxWidth { canvas.put("▏", cursor, y, .focused) }
        }
    }

    private func drawForm(_ canvas: inout Canvas) {
        canvas.text("Check in for today's appointment", 22, 2, .heading)
        draw(kiosk.nameField, &canvas, width: 40)
        draw(kiosk.pinField, &canvas, width: 40)
        canvas.text("4–6 digits", 22 + 42, 6, .faint)
        let box = kiosk.consent
        canvas.text(
            (box.isChecked ? "[x] " : "[ ] ") + box.title, cell(box.frame.minX), cell(box.frame.minY), style(box))
        draw(kiosk.submit, &canvas)
        canvas.text("Return in the PIN field checks in; Tab leaves the form.", 22, 12, .faint)
    }

    private func drawDialog(_ canvas: inout Canvas) {
        let frame = kiosk.dialog.frame
        let (x, y, w, h) = (cell(frame.minX), cell(frame.minY), cell(frame.width), cell(frame.height))
        canvas.fill(x, y, x + w - 1, y + h - 1)
        canvas.box(
            x, y, x + w - 1, y + h - 1, .heavy, focusSystem.focusGroup(of: kiosk.confirm) != nil ? .group : .plain)
        canvas.text(" Please confirm ", x + 2, y, .heading)
        canvas.wrapped(kiosk.dialogText, x + 3, y + 2, width: w - 6, .plain)
        draw(kiosk.confirm, &canvas)
        if !kiosk.cancel.isHidden { draw(kiosk.cancel, &canvas) }
    }

    private func drawHelp(_ canvas: inout Canvas) {
        let frame = kiosk.helpPanel.frame
        let (x, y, width, height) = (cell(frame.minX), cell(frame.minY), cell(frame.width), cell(frame.height))
        canvas.fill(x, y, x + width - 1, y + height - 1)
        canvas.box(x, y, x + width - 1, y + height - 1, .double, .overlay)
        canvas.text(" Keys you can use here ", x + 2, y, .overlay)
        // One column, or two when the lines do not fit (the listener's speech keys make a long list).
        let lines = kiosk.helpLines
        let available = max(1, height - 5)
        let twoColumns = lines.count > available
        let columnWidth = twoColumns ? (width - 6) / 2 : width - 4
        for (index, line) in lines.enumerated() {
            let (column, row) = twoColumns ? (index / available, index % available) : (0, index)
            guard column < 2, row < available else { break }
            let style: CellStyle = line.isHeading ? .heading : line.isEnabled ? .plain : .faint
            let left = x + 2 + column * (columnWidth + 2)
            let shortcutWidth = Canvas.width(of: line.shortcut)
            canvas.text(line.text, left, y + 2 + row, style, limit: max(0, columnWidth - shortcutWidth - 1))
            canvas.text(line.shortcut, left + columnWidth - shortcutWidth, y + 2 + row, style)
        }
        draw(kiosk.helpClose, &canvas)
        canvas.text(" Escape or F1 closes ", x + width - 23, y + height - 1, .overlay)
    }

    private func drawStatus(_ canvas: inout Canvas, group: String?) {
        let row = canvas.rows - 3
        let focused = focusSystem.focusedItem?.focusDebugName ?? "none"
        let responder = kiosk.window.firstResponder?.traceName ?? "none"
        // While keys go into the PIN field, which keys are down is as secret as what they type.
        let held =
            dispatcher.isSecureEntry
            ? "•" : dispatcher.keyboardState.pressedKeys.map(\.name).joined(separator: " ")
        canvas.text(
            "focus \(focused) │ first responder \(responder) │ group \(group ?? "none") │ held \(held.isEmpty ? "-" : held)",
            0, row, .heading, limit: canvas.columns)
        canvas.text(kiosk.message, 0, row + 1, .plain, limit: canvas.columns)
        canvas.text(
            "\(inputNote) · Tab menu/content · Return choose · Ctrl-F search · Alt-Home home", 0,
            row + 2, .faint, limit: canvas.columns)
    }
}
