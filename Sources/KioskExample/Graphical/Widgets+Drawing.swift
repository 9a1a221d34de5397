import Graphics
import ResponderChain

// How the kiosk's widgets draw themselves in the graphical face, in points, from their state. Focus
// is the system's effect over them (a ring, or the tiles' lift), drawn by the painter.

extension Rect {
    /// A part of this rectangle `width` wide at its leading edge (the left in left-to-right, the
    /// right in right-to-left).
    func leading(_ width: Double, _ direction: LayoutDirection) -> Rect {
        let x = direction == .rightToLeft ? maxX - width : minX
        return Rect(x: x, y: minY, width: width, height: height)
    }

    /// What is left after cutting `width` off the leading edge.
    func droppingLeading(_ width: Double, _ direction: LayoutDirection) -> Rect {
        let rest = max(0, self.width - width)
        return Rect(x: direction == .rightToLeft ? minX : minX + width, y: minY, width: rest, height: height)
    }

    /// A part of this rectangle `width` wide at its trailing edge.
    func trailing(_ width: Double, _ direction: LayoutDirection) -> Rect {
        leading(width, direction == .rightToLeft ? .leftToRight : .rightToLeft)
    }

    /// A square of this side centred in the rectangle.
    func centeredSquare(_ side: Double) -> Rect {
        Rect(x: midX - side / 2, y: midY - side / 2, width: side, height: side)
    }
}

extension Button {
    /// A tile's name: its identifier without `tile-` (`checkin`, `find`…).
    var tileName: String { String(identifier?.dropFirst("tile-".count) ?? "") }

    /// A home tile: a white card, the tile's colour as a plate behind its icon, the title and the
    /// subtitle under it; darker while pressed, outlined in its colour while focused (the painter
    /// lifts it too).
    func drawTile(in context: any GraphicsContext, state: DrawingState, appearance: KioskAppearance) {
        let theme = appearance.theme
        let unit = appearance.metrics.unit
        let color = appearance.tileColors[tileName] ?? theme.accent
        let card = Path.roundedRect(frame, cornerRadius: cornerRadius)
        context.withSavedState {
            context.setShadow(Shadow(color: Color(hex: 0x0B2A2E, alpha: 0.10), offset: Point(x: 0, y: 3), radius: 10))
            context.fill(card, state.isPressed ? theme.surface.mixed(with: color, by: 0.12) : theme.surface)
        }
        if state.isFocused {
            context.stroke(
                .roundedRect(frame.insetBy(dx: 1.5, dy: 1.5), cornerRadius: cornerRadius - 1.5), color, lineWidth: 3)
        } else {
            context.stroke(
                .roundedRect(frame.insetBy(dx: 0.5, dy: 0.5), cornerRadius: cornerRadius), theme.outline,
                lineWidth: 1)
        }
        let padding = (24 * unit).rounded()
        let content = frame.insetBy(dx: padding, dy: padding)
        let direction = context.layoutDirection
        let plateSide = min((76 * unit).rounded(), content.height * 0.45)
        let plate = content.leading(plateSide, direction)
        let plateRect = Rect(x: plate.minX, y: content.minY, width: plateSide, height: plateSide)
        context.fill(.roundedRect(plateRect, cornerRadius: plateSide * 0.28), color)
        if let icon {
            context.draw(appearance.whiteIcon(icon), in: plateRect.centeredSquare(plateSide * 0.6), mode: .fit)
        }
        let titleStyle = TextStyle(
            font: appearance.font(30, .semibold), color: theme.text, verticalAlignment: .bottom, lineLimit: 2)
        let subtitleStyle = TextStyle(
            font: appearance.font(21), color: theme.secondaryText, verticalAlignment: .bottom, lineLimit: 1)
        let subtitleHeight = (30 * unit).rounded()
        context.draw(
            subtitle,
            in: Rect(x: content.minX, y: content.maxY - subtitleHeight, width: content.width, height: subtitleHeight),
            style: subtitleStyle)
        let titleBottom = content.maxY - subtitleHeight - 4 * unit
        let titleTop = plateRect.maxY + 8 * unit
        context.draw(
            title, in: Rect(x: content.minX, y: titleTop, width: content.width, height: max(0, titleBottom - titleTop)),
            style: titleStyle)
    }

    /// A menu entry: its icon and title; filled with the brand's colour while its screen shows,
    /// tinted while pressed.
    func drawNavigation(in context: any GraphicsContext, state: DrawingState, appearance: KioskAppearance) {
        let theme = appearance.theme
        let unit = appearance.metrics.unit
        let shape = Path.roundedRect(frame, cornerRadius: cornerRadius)
        if state.isSelected {
            context.fill(shape, state.isPressed ? theme.accent.mixed(with: .black, by: 0.2) : theme.accent)
        } else if state.isPressed {
            context.fill(shape, theme.accent.opacity(0.14))
        }
        let ink = state.isSelected ? theme.onAccent : theme.text
        let direction = context.layoutDirection
        let inner = frame.insetBy(dx: (20 * unit).rounded(), dy: 0)
        let side = (30 * unit).rounded()
        if let icon {
            let image = state.isSelected ? appearance.whiteIcon(icon) : appearance.brandIcon(icon)
            context.draw(image, in: inner.leading(side, direction).centeredSquare(side), mode: .fit)
        }
        context.draw(
            title, in: inner.droppingLeading(side + (16 * unit).rounded(), direction),
            style: TextStyle(font: appearance.font(23, state.isSelected ? .semibold : .medium), color: ink))
    }

    /// A form's or a dialog's button: filled with the brand's colour (primary) or outlined
    /// (secondary), its title centred; darker while pressed.
    func drawAction(in context: any GraphicsContext, state: DrawingState, appearance: KioskAppearance) {
        let theme = appearance.theme
        let shape = Path.roundedRect(frame, cornerRadius: cornerRadius)
        let ink: Color
        switch emphasis {
        case .primary:
            context.fill(shape, state.isPressed ? theme.accent.mixed(with: .black, by: 0.22) : theme.accent)
            ink = theme.onAccent
        case .secondary:
            context.fill(shape, state.isPressed ? theme.accent.opacity(0.14) : theme.surface)
            context.stroke(
                .roundedRect(frame.insetBy(dx: 1, dy: 1), cornerRadius: cornerRadius - 1), theme.accent, lineWidth: 2)
            ink = theme.accent
        }
        context.draw(
            title, in: frame.insetBy(dx: 12, dy: 0),
            style: TextStyle(font: appearance.font(24, .semibold), color: ink, alignment: .center))
    }
}

extension Checkbox {
    /// A card the width of the form: the box (the brand's colour with a white tick when checked) and
    /// the sentence after it.
    func drawCheckbox(in context: any GraphicsContext, state: DrawingState, appearance: KioskAppearance) {
        let theme = appearance.theme
        let unit = appearance.metrics.unit
        let shape = Path.roundedRect(frame, cornerRadius: cornerRadius)
        context.fill(shape, state.isPressed ? theme.surface.mixed(with: theme.accent, by: 0.1) : theme.surface)
        context.stroke(
            .roundedRect(frame.insetBy(dx: 0.5, dy: 0.5), cornerRadius: cornerRadius), theme.outline,
            lineWidth: 1)
        let direction = context.layoutDirection
        let inner = frame.insetBy(dx: (18 * unit).rounded(), dy: 0)
        let side = (34 * unit).rounded()
        let box = inner.leading(side, direction).centeredSquare(side)
        let boxShape = Path.roundedRect(box, cornerRadius: 8 * unit)
        if isChecked {
            context.fill(boxShape, theme.accent)
            var tick = Path()
            tick.move(to: Point(x: box.minX + side * 0.24, y: box.minY + side * 0.52))
            tick.line(to: Point(x: box.minX + side * 0.43, y: box.minY + side * 0.71))
            tick.line(to: Point(x: box.minX + side * 0.77, y: box.minY + side * 0.32))
            context.stroke(tick, theme.onAccent, lineWidth: 3.5 * unit)
        } else {
            context.fill(boxShape, theme.surface)
            context.stroke(
                .roundedRect(box.insetBy(dx: 1, dy: 1), cornerRadius: 8 * unit - 1), theme.secondaryText, lineWidth: 2)
        }
        context.draw(
            title, in: inner.droppingLeading(side + (16 * unit).rounded(), direction),
            style: TextStyle(font: appearance.font(22), color: theme.text, lineLimit: 2))
    }
}

extension Row {
    /// A line of the directory: initials in a circle, the name over the department, the room at the
    /// end; tinted while it is the row described, clipped to the list (rows scrolled away are off it).
    func drawRow(in context: any GraphicsContext, state: DrawingState, appearance: KioskAppearance) {
        let theme = appearance.theme
        let unit = appearance.metrics.unit
        if let list = parent as? FocusNode { context.clip(to: list.frame) }
        let shape = Path.roundedRect(frame.insetBy(dx: 4, dy: 2), cornerRadius: cornerRadius)
        if state.isPressed {
            context.fill(shape, theme.accent.opacity(0.18))
        } else if isCurrent {
            context.fill(shape, theme.accent.opacity(0.1))
        }
        let direction = context.layoutDirection
        let inner = frame.insetBy(dx: (16 * unit).rounded(), dy: 0)
        let side = (42 * unit).rounded()
        let badge = inner.leading(side, direction).centeredSquare(side)
        context.fill(.ellipse(in: badge), theme.accent.opacity(isCurrent ? 0.9 : 0.12))
        let initials = String(entry.name.split(separator: " ").compactMap(\.first))
        context.draw(
            initials, in: badge,
            style: TextStyle(
                font: appearance.font(17, .semibold), color: isCurrent ? theme.onAccent : theme.accent,
                alignment: .center))
        let text = inner.droppingLeading(side + (16 * unit).rounded(), direction)
        let roomWidth = (150 * unit).rounded()
        let words = Rect(
            x: direction == .rightToLeft ? text.minX + roomWidth : text.minX, y: text.minY,
            width: max(0, text.width - roomWidth), height: text.height)
        let half = words.height / 2
        context.draw(
            entry.name, in: Rect(x: words.minX, y: words.minY, width: words.width, height: half + 2 * unit),
            style: TextStyle(font: appearance.font(22, .semibold), color: theme.text, verticalAlignment: .bottom))
        context.draw(
            entry.department,
            in: Rect(
                x: words.minX, y: words.minY + half + 2 * unit, width: words.width,
                height: half - 2 * unit),
            style: TextStyle(font: appearance.font(18), color: theme.secondaryText, verticalAlignment: .top))
        context.draw(
            appearance.language.room + " " + entry.room, in: text.trailing(roomWidth, direction),
            style: TextStyle(font: appearance.font(20, .medium), color: theme.text, alignment: .trailing))
        if !isCurrent && !state.isPressed {
            let line = Rect(x: inner.minX, y: frame.maxY - 1, width: inner.width, height: 1)
            context.fill(.rect(line), theme.outline.opacity(0.6))
        }
    }
}
