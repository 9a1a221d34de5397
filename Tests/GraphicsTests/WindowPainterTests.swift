import Graphics
import ResponderChain
import ResponderChainTesting
import Testing

/// A kiosk-like screen: a title, a sidebar group of three buttons, a content group of four tiles
/// in a 2x2 grid, and a hidden dialog card with two buttons; sized to the window.
@MainActor
struct KioskScreen {
    let window = Window(identifier: "window")
    let root = FocusNode(identifier: "root")
    let title: LabelNode
    let sidebar: PanelNode
    let content: PanelNode
    let menu: [ButtonNode]
    let tiles: [ButtonNode]
    let dialog: PanelNode
    let confirm: ButtonNode
    let cancel: ButtonNode
    let app: AppHarness
    let painter: WindowPainter

    init(width: Double = 800, height: Double = 600, direction: LayoutDirection = .leftToRight) {
        window.layoutDirection = direction
        root.frame = Rect(x: 0, y: 0, width: width, height: height)
        window.addChild(root)
        title = LabelNode(
            "Riverside Clinic", style: TextStyle(font: Font(size: 40, weight: .bold)), identifier: "title",
            frame: Rect(x: 24, y: 16, width: width - 48, height: 56))
        root.addChild(title)
        sidebar = PanelNode(
            showsFocusContainment: true, identifier: "sidebar",
            frame: Rect(x: 24, y: 96, width: 240, height: height - 120))
        sidebar.focusGroupIdentifier = "sidebar"
        root.addChild(sidebar)
        menu = (0..<3).map { index in
            ButtonNode(
                ["Home", "Check in", "Directory"][index], look: .plain, identifier: "menu\(index)",
                frame: Rect(x: 36, y: 112 + Double(index) * 76, width: 216, height: 64))
        }
        for button in menu { sidebar.addChild(button) }
        content = PanelNode(
            showsFocusContainment: true, identifier: "content",
            frame: Rect(x: 288, y: 96, width: width - 312, height: height - 120))
        content.focusGroupIdentifier = "content"
        root.addChild(content)
        let tileWidth = (width - 312 - 72) / 2
        let tileHeight = (height - 120 - 72) / 2
        tiles = (0..<4).map { index in
            ButtonNode(
                "Tile \(index)", subtitle: "Subtitle", look: .tile, identifier: "tile\(index)",
                frame: Rect(
                    x: 312 + Double(index % 2) * (tileWidth + 24), y: 120 + Double(index / 2) * (tileHeight + 24),
                    width: tileWidth, height: tileHeight))
        }
        for tile in tiles { content.addChild(tile) }
        dialog = PanelNode(
            identifier: "dialog", frame: Rect(x: width / 2 - 200, y: height / 2 - 120, width: 400, height: 240))
        dialog.shadow = Shadow(offset: Point(x: 0, y: 8), radius: 24)
        dialog.isHidden = true
        dialog.focusGroupIdentifier = "dialog"
        root.addChild(dialog)
        confirm = ButtonNode(
            "Confirm", identifier: "confirm",
            frame: Rect(x: width / 2 - 180, y: height / 2 + 40, width: 160, height: 60))
        cancel = ButtonNode(
            "Cancel", look: .plain, identifier: "cancel",
            frame: Rect(x: width / 2 + 20, y: height / 2 + 40, width: 160, height: 60))
        dialog.addChild(confirm)
        dialog.addChild(cancel)
        root.preferredFocusIdentifiers = ["tile0"]
        app = AppHarness(window: window, root: root)
        painter = WindowPainter(window: window, size: Size(width: width, height: height))
    }

    /// Paints what changed and returns the damage and what was drawn.
    func frame() -> (damage: DamageRegion, recorder: DrawingRecorder) {
        let damage = painter.takeDamage()
        let recorder = DrawingRecorder()
        painter.paint(damage, in: recorder)
        return (damage, recorder)
    }

    var bounds: Rect { painter.bounds }
}

/// The reach of the automatic ring (4 points wide, 3 away, plus a point of antialiasing).
private let ring = 8.0

private func grown(_ rect: Rect, by amount: Double) -> Rect { rect.insetBy(dx: -amount, dy: -amount) }

@MainActor
@Suite("WindowPainter: damage by rectangle, states, the focus effect")
struct WindowPainterTests {
    @Test("the first frame draws everything; then nothing changed draws nothing")
    func firstFrameThenIdle() {
        let screen = KioskScreen()
        let first = screen.frame()
        #expect(first.damage.rects == [screen.bounds])
        #expect(first.recorder.nodesDrawn.contains("tile0"))
        #expect(!first.recorder.nodesDrawn.contains("dialog"), "a hidden node is not drawn")
        #expect(!screen.painter.needsFrame)
        let idle = screen.frame()
        #expect(idle.damage.isEmpty)
        #expect(idle.recorder.operations.isEmpty)
    }

    @Test("an arrow inside a group damages the two tiles with their rings, nothing else")
    func arrowMoveDamagesTwoItems() {
        let screen = KioskScreen()
        _ = screen.frame()
        #expect(screen.app.focusSystem.focusedItem === screen.tiles[0])
        screen.app.keyboard.tap("right")
        #expect(screen.app.focusSystem.focusedItem === screen.tiles[1])
        let (damage, recorder) = screen.frame()
        let expected = grown(screen.tiles[0].frame, by: ring).union(grown(screen.tiles[1].frame, by: ring))
        #expect(damage.bounds == expected || damage.rects.count == 2)
        for rect in damage.rects {
            #expect(
                rect == grown(screen.tiles[0].frame, by: ring) || rect == grown(screen.tiles[1].frame, by: ring)
                    || rect == expected)
        }
        let drawn = Set(recorder.nodesDrawn)
        #expect(drawn.contains("tile0") && drawn.contains("tile1"))
        #expect(!drawn.contains("tile2") && !drawn.contains("tile3") && !drawn.contains("menu0"))
        #expect(recorder.states["tile1"]?.isFocused == true)
        #expect(recorder.states["tile0"]?.isFocused == false)
    }

    @Test("Tab into another group damages the two items and the two outlines' bands, not the panels")
    func tabIntoAnotherGroup() {
        let screen = KioskScreen()
        _ = screen.frame()
        screen.app.keyboard.tap("tab")
        let focused = screen.app.focusSystem.focusedItem as? ButtonNode
        #expect(focused.map { node in screen.menu.contains { $0 === node } } == true, "Tab goes to the sidebar")
        #expect(screen.sidebar.drawingState.containsFocus != screen.content.drawingState.containsFocus)
        let (damage, recorder) = screen.frame()
        // Far less than the two panels' area: the outlines are bands 6 points wide.
        let panels =
            screen.sidebar.frame.width * screen.sidebar.frame.height
            + screen.content.frame.width * screen.content.frame.height
        #expect(damage.area < panels / 2, "damage \(damage) is most of the panels")
        #expect(damage.intersects(screen.content.frame) && damage.intersects(screen.sidebar.frame))
        #expect(recorder.states["content"] != nil && recorder.states["sidebar"] != nil)
        #expect(recorder.states["sidebar"]?.containsFocus == screen.sidebar.drawingState.containsFocus)
        // One pass for all the rectangles: a node two of them reach is drawn once, under one clip.
        #expect(damage.rects.count > 1)
        #expect(recorder.clips.count == damage.rects.count)
        #expect(recorder.operations.filter { if case .clipUnion = $0 { true } else { false } }.count == 1)
        #expect(Set(recorder.nodesDrawn).count == recorder.nodesDrawn.count, "drawn twice: \(recorder.nodesDrawn)")
    }

    @Test("the damage of a focus move does not grow with the screen")
    func damageIndependentOfScreenSize() {
        let small = KioskScreen(width: 800, height: 600)
        let large = KioskScreen(width: 1920, height: 1080)
        for screen in [small, large] {
            _ = screen.frame()
            screen.app.keyboard.tap("down")
            let damage = screen.frame().damage
            // The tiles grow with the screen here: the damage is the two tiles with their rings
            // and the gap between them, whatever the screen's size.
            let tile = screen.tiles[0].frame
            let expected = [grown(tile, by: ring), grown(screen.tiles[2].frame, by: ring)]
            #expect(Set(damage.rects) == Set(expected))
            #expect(!damage.intersects(screen.sidebar.frame) && !damage.intersects(screen.title.frame))
        }
    }

    @Test("a label's new text damages its frame only")
    func textChange() {
        let screen = KioskScreen()
        _ = screen.frame()
        screen.title.text = "Welcome"
        let (damage, recorder) = screen.frame()
        #expect(damage.rects == [screen.title.frame])
        #expect(recorder.texts(of: "title") == ["Welcome"])
        screen.title.text = "Welcome"
        #expect(screen.frame().damage.isEmpty, "the same text again draws nothing")
    }

    @Test("a field's typing damages the field only, and its cursor shows while first responder")
    func fieldTyping() {
        let window = Window()
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        window.addChild(root)
        let field = TextFieldNode(
            label: "Name", identifier: "name", frame: Rect(x: 40, y: 40, width: 400, height: 96))
        let other = ButtonNode("Next", identifier: "next", frame: Rect(x: 40, y: 200, width: 200, height: 60))
        root.addChild(field)
        root.addChild(other)
        let app = AppHarness(window: window, root: root)
        let painter = WindowPainter(window: window, size: Size(width: 800, height: 600))
        _ = painter.takeDamage()
        app.pointer.tap(at: Point(x: 100, y: 100))
        #expect(window.firstResponder === field)
        _ = painter.takeDamage()
        app.keyboard.typeText("Ada")
        #expect(field.text == "Ada")
        let damage = painter.takeDamage()
        #expect(damage.rects == [field.frame])
        let recorder = DrawingRecorder()
        painter.paint(damage, in: recorder)
        #expect(recorder.texts(of: "name").contains("Ada"))
        #expect(recorder.states["name"]?.isFirstResponder == true)
        #expect(!recorder.nodesDrawn.contains("next"))
    }

    @Test("a modal card damages its frame and shadow when shown and hidden; focus inside it only its items")
    func modal() {
        let screen = KioskScreen()
        _ = screen.frame()
        screen.dialog.isHidden = false
        screen.app.focusSystem.presentModal(screen.dialog)
        screen.app.focusSystem.updateFocusIfNeeded()
        #expect(screen.app.focusSystem.focusedItem === screen.confirm)
        let shown = screen.frame()
        let card = grown(screen.dialog.frame, by: screen.dialog.drawingOutset)
        #expect(shown.damage.intersects(card))
        #expect(shown.damage.bounds.contains(card))
        #expect(shown.damage.area < screen.bounds.width * screen.bounds.height / 2)
        #expect(shown.recorder.nodesDrawn.contains("dialog") && shown.recorder.nodesDrawn.contains("confirm"))
        screen.app.keyboard.tap("right")
        #expect(screen.app.focusSystem.focusedItem === screen.cancel, "\(screen.app.focusSystem.debugDescription)")
        let inside = screen.frame()
        #expect(inside.damage.bounds.contains(grown(screen.cancel.frame, by: ring)))
        #expect(inside.damage.area <= 2 * (160 + 2 * ring) * (60 + 2 * ring) + 1)
        screen.app.focusSystem.dismissModal(screen.dialog)
        screen.dialog.isHidden = true
        let hidden = screen.frame()
        #expect(hidden.damage.bounds.contains(card))
        #expect(!hidden.recorder.nodesDrawn.contains("confirm"))
    }

    @Test("a node moved or removed is damaged where it was and where it is")
    func moveAndRemove() {
        let screen = KioskScreen()
        _ = screen.frame()
        let before = screen.tiles[3].frame
        screen.tiles[3].frame = before.offsetBy(dx: 0, dy: 10)
        let moved = screen.frame().damage
        #expect(moved.bounds.contains(before) && moved.bounds.contains(screen.tiles[3].frame))
        let now = screen.tiles[3].frame
        screen.tiles[3].removeFromParent()
        let removed = screen.frame()
        #expect(removed.damage.bounds.contains(now))
        #expect(!removed.recorder.nodesDrawn.contains("tile3"))
    }

    @Test("a finger down shows pressed at once, sliding off or lifting ends it")
    func pressedState() {
        let screen = KioskScreen()
        _ = screen.frame()
        let tile = screen.tiles[2]
        let inside = Point(x: tile.frame.midX, y: tile.frame.midY)
        screen.app.pointer.send(.down, .touch, contact: 0, at: inside)
        #expect(tile.isPressed)
        let down = screen.frame()
        #expect(down.damage.bounds.contains(tile.frame))
        #expect(down.recorder.states["tile2"]?.isPressed == true)
        screen.app.pointer.send(.move, .touch, contact: 0, at: Point(x: 5, y: 5))
        #expect(!tile.isPressed, "sliding off ends the press, as UIKit un-highlights")
        #expect(screen.frame().recorder.states["tile2"]?.isPressed == false)
        screen.app.pointer.send(.up, .touch, contact: 0, at: Point(x: 5, y: 5))
        screen.app.pointer.touchCancelled(at: inside)
        #expect(!tile.isPressed, "a cancelled touch ends the press")
        screen.app.pointer.send(.down, .mouse, at: inside)
        screen.app.pointer.send(.down, .touch, contact: 3, at: inside)
        #expect(tile.isPressed)
        screen.app.pointer.send(.up, .mouse, at: inside)
        #expect(tile.isPressed, "a second contact still presses it")
        screen.app.pointer.send(.up, .touch, contact: 3, at: inside)
        #expect(!tile.isPressed)
    }

    @Test("disabled cannot be focused or tapped and draws faded; selected is drawn selected")
    func disabledAndSelected() {
        let screen = KioskScreen()
        _ = screen.frame()
        screen.tiles[1].isEnabled = false
        screen.tiles[2].isSelected = true
        #expect(screen.tiles[1].accessibilityTraits.contains(.notEnabled))
        #expect(screen.tiles[2].accessibilityTraits.contains(.selected))
        let (damage, recorder) = screen.frame()
        #expect(damage.bounds.contains(screen.tiles[1].frame) && damage.bounds.contains(screen.tiles[2].frame))
        #expect(recorder.states["tile1"]?.isEnabled == false)
        #expect(recorder.states["tile2"]?.isSelected == true)
        #expect(recorder.operations.contains(.opacity(0.4)))
        screen.app.keyboard.tap("right")
        #expect(screen.app.focusSystem.focusedItem !== screen.tiles[1], "focus skips the disabled tile")
        let point = Point(x: screen.tiles[1].frame.midX, y: screen.tiles[1].frame.midY)
        #expect(screen.app.focusSystem.item(at: point) == nil)
    }

    @Test("the automatic ring is drawn last, around the focused item; a lift scales it over a shadow")
    func focusEffects() {
        let screen = KioskScreen()
        let first = screen.frame().recorder.operations
        guard
            case .stroke(let path, .color(let color), let width)? = first.last(where: {
                if case .stroke = $0 { true } else { false }
            })
        else {
            Issue.record("no ring")
            return
        }
        #expect(color == screen.painter.focusColor && width == 4)
        #expect(path.bounds.contains(screen.tiles[0].frame))
        screen.tiles[1].focusEffect = .lift()
        screen.app.keyboard.tap("right")
        let lifted = screen.frame().recorder.operations
        #expect(lifted.contains(.scale(1.06)))
        #expect(lifted.contains { if case .shadow(let shadow) = $0 { shadow != nil } else { false } })
        let lastNode = lifted.last { if case .beginNode = $0 { true } else { false } }
        #expect(
            lastNode.map {
                if case .beginNode(let name, _) = $0 { name.hasPrefix("tile1") || name == "tile1" } else { false }
            } == true)
    }

    @Test("right to left reaches the nodes' state and the context")
    func rightToLeft() {
        let screen = KioskScreen(direction: .rightToLeft)
        let (_, recorder) = screen.frame()
        #expect(recorder.states["tile0"]?.layoutDirection == .rightToLeft)
        #expect(screen.title.drawingState.layoutDirection == .rightToLeft)
    }

    @Test("the window's background and tint colours are the painter's, and changing one draws everything")
    func windowColors() {
        let screen = KioskScreen()
        let first = screen.frame().recorder.operations
        #expect(first.contains(.fill(.rect(screen.bounds), .color(.white))))
        screen.window.backgroundColor = Color(hex: 0x102030)
        let (damage, recorder) = screen.frame()
        #expect(damage.rects == [screen.bounds])
        #expect(recorder.operations.contains(.fill(.rect(screen.bounds), .color(Color(hex: 0x102030)))))
        screen.window.tintColor = Color(hex: 0x00704A)
        let tinted = screen.frame()
        #expect(tinted.damage.rects == [screen.bounds])
        #expect(
            tinted.recorder.operations.contains {
                if case .stroke(_, .color(let color), _) = $0 { color == Color(hex: 0x00704A) } else { false }
            })
        screen.window.tintColor = Color(hex: 0x00704A)
        #expect(screen.frame().damage.isEmpty, "the same colour again draws nothing")
    }

    @Test("many invalidations between two frames draw everything once")
    func overflow() {
        let screen = KioskScreen()
        _ = screen.frame()
        for index in 0..<(Window.displayInvalidationLimit + 1) { screen.title.text = "n\(index)" }
        #expect(screen.frame().damage.rects == [screen.bounds])
    }
}

@Suite("DamageRegion")
struct DamageRegionTests {
    @Test("overlapping rectangles merge, distant ones stay apart, too many become one")
    func merging() {
        var region = DamageRegion(limit: 3)
        region.add(Rect(x: 0, y: 0, width: 10, height: 10))
        region.add(Rect(x: 5, y: 0, width: 10, height: 10))
        #expect(region.rects == [Rect(x: 0, y: 0, width: 15, height: 10)])
        region.add(Rect(x: 100, y: 100, width: 10, height: 10))
        #expect(region.rects.count == 2)
        region.add(Rect(x: 2, y: 2, width: 3, height: 3))
        #expect(region.rects.count == 2, "a rectangle inside another adds nothing")
        region.add(Rect(x: 200, y: 0, width: 1, height: 1))
        #expect(region.rects.count == 3)
        region.add(Rect(x: 110, y: 100, width: 10, height: 10))
        #expect(region.rects.count == 3, "touching and adding nothing: merged")
        region.add(Rect(x: 0, y: 200, width: 1, height: 1))
        #expect(region.rects.count == 3, "over the limit: the cheapest two merged")
        #expect(region.bounds == Rect(x: 0, y: 0, width: 201, height: 201))
        #expect(region.area < 201 * 201 / 2)
        region.clip(to: Rect(x: 0, y: 0, width: 50, height: 50))
        #expect(region.rects.allSatisfy { Rect(x: 0, y: 0, width: 50, height: 50).contains($0) })
        #expect(region.bounds.contains(Rect(x: 0, y: 0, width: 15, height: 10)))
    }

    @Test("an L of two rectangles stays two")
    func lShape() {
        var region = DamageRegion()
        region.add(Rect(x: 0, y: 0, width: 100, height: 4))
        region.add(Rect(x: 0, y: 0, width: 4, height: 100))
        #expect(region.rects.count == 2)
    }
}

@MainActor
@Suite("Touch target sizes")
struct TouchTargetSizeTests {
    @Test("a painted window flags targets under 44x44 points; an app may ask for more; cells are not checked")
    func minimumSize() {
        let window = Window()
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        window.addChild(root)
        root.addChild(ButtonNode("OK", identifier: "small", frame: Rect(x: 10, y: 10, width: 40, height: 60)))
        root.addChild(ButtonNode("Pay", identifier: "large", frame: Rect(x: 100, y: 10, width: 60, height: 60)))
        let app = AppHarness(window: window, root: root)
        #expect(app.pointerTargets.tooSmall.isEmpty, "frames in cells: no size is checked")
        let painter = WindowPainter(window: window, size: Size(width: 800, height: 600))
        #expect(window.minimumTargetSize == 44)
        let report = app.pointerTargets
        #expect(report.tooSmall.map(\.item) == ["small"])
        #expect(report.description.contains("1 smaller than 44×44"))
        #expect(report.entry("small")?.description.contains("too small for a finger") == true)
        window.minimumTargetSize = 60
        #expect(app.pointerTargets.tooSmall.map(\.item) == ["small"])
        window.minimumTargetSize = 61
        #expect(app.pointerTargets.tooSmall.map(\.item) == ["small", "large"])
        painter.detach()
    }
}
