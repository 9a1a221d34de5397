import Graphics
import ResponderChain
import ResponderChainTesting
import Testing

@testable import KioskExample

/// The kiosk's graphical face laid out in points: one tree with the terminal face, targets large
/// enough for a finger on a public screen, and the mirror image for a right-to-left language.
@MainActor
@Suite struct KioskPointLayoutTests {
    nonisolated static let sizes = [Size(width: 1280, height: 800), Size(width: 1920, height: 1080)]

    /// Each state a screen can be in, reached through the kiosk's own behaviour.
    enum Screen: String, CaseIterable {
        case home, directory, search, checkIn, pin, dialog, help

        @MainActor func show(on kiosk: GraphicalKiosk) {
            let app = kiosk.app
            switch self {
            case .home: break
            case .directory: app.keyboard.type("ctrl+f down")
            case .search: app.keyboard.tap("ctrl+f")
            case .checkIn: kiosk.tap(kiosk.kiosk.tiles[0])
            case .pin:
                kiosk.tap(kiosk.kiosk.tiles[0])
                kiosk.tap(kiosk.kiosk.pinField)
            case .dialog: kiosk.tap(kiosk.kiosk.tiles[2])  // opening hours
            case .help: app.keyboard.tap("f1")
            }
        }
    }

    @Test(
        "every target of every screen is at least 60x60 points at 1280x800 and 1920x1080, none covered",
        arguments: sizes, Screen.allCases)
    func targetsAreLargeEnough(size: Size, screen: Screen) {
        let kiosk = GraphicalKiosk(size: size)
        screen.show(on: kiosk)
        #expect(kiosk.kiosk.window.minimumTargetSize == 60)
        let report = kiosk.app.pointerTargets
        #expect(report.entries.count >= (screen == .dialog || screen == .help ? 1 : 3), "\(report)")
        report.expectTargetsLargeEnough()
        #expect(report.conflicts.isEmpty, "\(report)")
        if screen == .checkIn || screen == .pin || screen == .search {
            #expect(!kiosk.keyboard.isHidden, "the keyboard is up for \(screen)")
            #expect(report.entries.contains { $0.item.hasPrefix("key-") })
        }
    }

    @Test("at 960x540 points (1920x1080 at scale 2) targets keep 44x44 points (WCAG 2.5.5)", arguments: Screen.allCases)
    func smallScreen(screen: Screen) {
        let kiosk = GraphicalKiosk(size: Size(width: 960, height: 540))
        screen.show(on: kiosk)
        #expect(kiosk.kiosk.window.minimumTargetSize == 48)
        for entry in kiosk.app.pointerTargets.entries where entry.frame.maxY > 0 && entry.frame.minY < 540 {
            #expect(entry.frame.width >= 44 && entry.frame.height >= 44, "\(entry)")
        }
        #expect(kiosk.app.pointerTargets.conflicts.isEmpty)
    }

    @Test("the same tree in both faces: identifiers, parents and groups; the pixel face adds the keyboard alone")
    func sameTree() {
        let terminal = Kiosk()
        let graphical = GraphicalKiosk()
        let cells = GraphicalKiosk.shape(of: terminal.window)
        let points = GraphicalKiosk.shape(of: graphical.kiosk.window, skipping: graphical.keyboard)
        #expect(cells == points)
        #expect(cells.count > 250, "the whole tree, 240 rows included")
        #expect(graphical.keyboard.parent === graphical.kiosk.content)
        #expect(graphical.keyboard.focusGroupIdentifier == "keyboard")
    }

    @Test("frames are points on the screen: the menu, the tiles and the form inside it, the tiles 3 by 2")
    func framesInPoints() {
        for size in Self.sizes {
            let kiosk = GraphicalKiosk(size: size).kiosk
            let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
            #expect(kiosk.root.frame == screen)
            for node in kiosk.navigation.values.map({ $0 as FocusNode }) + kiosk.tiles + [
                kiosk.nameField, kiosk.submit,
            ] {
                #expect(screen.contains(node.frame), "\(node.traceName) \(node.frame)")
            }
            #expect(Set(kiosk.tiles.map(\.frame.minY)).count == 2)
            #expect(Set(kiosk.tiles.map(\.frame.minX)).count == 3)
            #expect(kiosk.sidebar.frame.maxX < kiosk.content.frame.minX)
        }
    }

    @Test("right to left: the menu at the right, the first tile at the top right; Right arrow moves left")
    func mirrored() {
        let kiosk = GraphicalKiosk(rightToLeft: true)
        #expect(kiosk.kiosk.window.layoutDirection == .rightToLeft)
        #expect(kiosk.kiosk.sidebar.frame.minX > kiosk.kiosk.content.frame.maxX)
        let first = kiosk.kiosk.tiles[0].frame
        #expect(kiosk.kiosk.tiles.allSatisfy { $0.frame.maxX <= first.maxX && $0.frame.minY >= first.minY })
        #expect(kiosk.app.focusSystem.focusedItem === kiosk.kiosk.tiles[0])
        kiosk.app.keyboard.tap("left")
        #expect(kiosk.app.focusSystem.focusedItem === kiosk.kiosk.tiles[1], "the next tile in reading order is left")
        #expect(kiosk.kiosk.tiles[0].title == "צ׳ק־אין")
    }

    @Test("the directory scrolls: rows out of the list are off the screen, Down past the last one scrolls")
    func directoryScrolls() {
        let kiosk = GraphicalKiosk(hardwareKeyboard: true)
        kiosk.app.keyboard.type("ctrl+f down")
        let list = kiosk.kiosk.list.frame
        let shown = kiosk.kiosk.rows.filter { list.contains($0.frame) }
        #expect(shown.count == kiosk.kiosk.visibleRows && shown.count >= 5)
        for row in kiosk.kiosk.rows where !list.contains(row.frame) {
            #expect(row.frame.maxY <= 0 || row.frame.minY >= 800, "\(row.traceName) \(row.frame)")
        }
        for _ in 0..<shown.count { kiosk.app.keyboard.tap("down") }
        let focused = kiosk.app.focusSystem.focusedItem as? Row
        #expect(focused?.index == shown.count)
        #expect(focused.map { list.contains($0.frame) } == true, "the list scrolled to it")
        #expect(kiosk.kiosk.scrollTop == 1)
        kiosk.app.keyboard.tap("end")
        #expect((kiosk.app.focusSystem.focusedItem as? Row)?.index == 239)
        #expect(kiosk.kiosk.rows[239].frame.maxY <= list.maxY)
    }
}
