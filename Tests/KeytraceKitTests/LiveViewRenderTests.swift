import DispatchTrace
import Foundation
import KeytraceKit
import ResponderChain
import Testing

@MainActor @Suite struct LiveViewRenderTests {
    static let focusable = [
        "search", "today", "scheduled", "all", "flagged", "buyMilk", "callMom", "fileTaxes", "notes", "passcode",
    ]

    func view() throws -> LiveView {
        let scene = try Scene(json: DemoScene.json, file: DemoScene.fileName)
        let session = TraceSession(scene: scene, layout: USKeyboardLayout(), onEvent: { _ in })
        session.start(input: "keys", layout: "us")
        return LiveView(session: session, scene: scene, input: "keys", layout: "us")
    }

    @Test(
        "at every terminal size every item is drawn, none hides another, and every line fits",
        arguments: [(40, 17), (60, 20), (80, 24), (100, 30), (120, 40), (200, 60)])
    func everyItemDrawn(columns: Int, rows: Int) throws {
        let view = try view()
        let lines = view.render(columns: columns, rows: rows, escapes: false)
        #expect(lines.count == rows)
        for line in lines { #expect(line.count <= columns, "\(line)") }
        #expect(lines.first?.count == columns, "the window box spans the width")
        let scene = lines.prefix(while: { !$0.hasPrefix("focus ") }).joined(separator: "\n")
        for id in Self.focusable where id.count < columns / 4 {
            #expect(scene.contains(id), "\(id) is drawn at \(columns)x\(rows):\n\(scene)")
        }
    }

    @Test("the focused item is doubled and marked as first responder; the tab-loop overlay numbers the stops in order")
    func focusAndTabLoop() throws {
        let view = try view()
        view.showsTabLoop = true
        let scene = view.render(columns: 110, rows: 36, escapes: false).joined(separator: "\n")
        #expect(scene.contains("╞*search 1 "))
        #expect(scene.contains("├buyMilk 2 "))
        #expect(scene.contains("├today 3 "))
        #expect(scene.contains("├notes 4 "))
        #expect(scene.contains("├passcode (secure) 5 "))
    }

    @Test("the current focus group is outlined heavy around its extent; a group of one item has no outline")
    func groupOutline() throws {
        let view = try view()
        func frameAfterTab() -> String {
            view.session.dispatcher.handle(KeyEvent(.tab, .down))
            view.session.dispatcher.handle(KeyEvent(.tab, .up))
            return view.render(columns: 110, rows: 36, escapes: false).joined(separator: "\n")
        }
        #expect(
            !view.render(columns: 110, rows: 36, escapes: false).joined().contains("┏"), "search is a group of its own")
        var scene = frameAfterTab()
        #expect(scene.contains("╞buyMilk") && scene.contains("┏reminders━") && scene.contains("┌lists─"), "\(scene)")
        scene = frameAfterTab()
        #expect(scene.contains("╞today") && scene.contains("┏lists━") && scene.contains("┌reminders─"), "\(scene)")
    }

    @Test("too small a terminal: the view says what the scene needs instead of drawing a broken frame")
    func tooSmall() throws {
        let view = try view()
        #expect(view.minimumSize() == (40, 17), "12 scene rows, 2 status lines, 3 trace lines")
        let lines = view.render(columns: 40, rows: 16, escapes: false)
        #expect(
            lines.prefix(3).joined(separator: " ").trimmingCharacters(in: .whitespaces)
                == "keytrace needs at least 40x17 for this scene (now 40x16); enlarge the terminal")
    }
}
