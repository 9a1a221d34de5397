import ResponderChain
import Testing

/// The touch and pointer side of the conflict report: where each item can be tapped and what a tap
/// runs, from the focus system's own hit test; an item covered whole is a conflict.
@MainActor @Suite struct PointerTargetReportTests {
    static let json = """
        {"root": {"id": "screen", "frame": [0, 0, 100, 60], "actions": ["open"], "children": [
          {"id": "open", "frame": [0, 0, 40, 20], "focusable": true, "primaryAction": "open"},
          {"id": "plain", "frame": [50, 0, 40, 20], "focusable": true},
          {"id": "name", "kind": "textInput", "frame": [50, 30, 40, 10]},
          {"id": "orphan", "frame": [0, 45, 10, 10], "focusable": true, "primaryAction": "nobody"},
          {"id": "under", "frame": [0, 30, 20, 10], "focusable": true, "primaryAction": "open"},
          {"id": "over", "frame": [0, 30, 20, 10], "focusable": true, "primaryAction": "open"},
          {"id": "badge", "frame": [30, 0, 25, 5], "focusable": true, "primaryAction": "open"},
          {"id": "gone", "frame": [60, 45, 10, 10], "focusable": true, "hidden": true}]}}
        """

    static func report() throws -> (Scene, FocusSystem, PointerTargetReport) {
        let scene = try Scene(json: json, file: "targets.json")
        let (_, focus) = scene.makeDispatcher()
        focus.updateFocusIfNeeded()
        return (scene, focus, PointerTargetReport(focus))
    }

    @Test("each visible item: whole, partly covered (by what), or covered whole; hidden items are not listed")
    func reach() throws {
        let (_, _, report) = try Self.report()
        #expect(report.entries.map(\.item) == ["open", "plain", "name", "orphan", "under", "over", "badge"])
        #expect(report.entry("open")?.reach == .partly(coveredBy: ["badge"]))
        #expect(report.entry("plain")?.reach == .partly(coveredBy: ["badge"]))
        #expect(report.entry("under")?.reach == PointerTargetReport.Reach.none(coveredBy: ["over"]))
        #expect(report.entry("over")?.reach == .whole)
        #expect(report.entry("under")?.tapPoint == nil)
        #expect(report.conflicts.map(\.item) == ["under"])
    }

    @Test("what a tap runs: the primary action and who performs it, a text field's focus, or nothing and why")
    func outcome() throws {
        let (_, _, report) = try Self.report()
        #expect(report.entry("open")?.outcome == .performs("open", responder: "screen"))
        #expect(report.entry("name")?.outcome == .takesFocus)
        #expect(report.entry("plain")?.outcome == .nothing(reason: "plain has no primary action"))
        #expect(report.entry("orphan")?.outcome == .nothing(reason: "no responder can perform nobody for orphan"))
    }

    @Test("a tap at each reachable item's tap point activates exactly that item, also where it is partly covered")
    func tapPoints() throws {
        let (_, focus, report) = try Self.report()
        for entry in report.entries {
            guard let point = entry.tapPoint else { continue }
            #expect(focus.item(at: point)?.focusDebugName == entry.item, "\(entry)")
        }
        // The badge covers a corner of open: its centre (20, 10) is free, so it is the tap point.
        #expect(report.entry("open")?.tapPoint == Point(x: 20, y: 10))
        // plain's centre (70, 10) is free too; the badge covers only its left top corner.
        #expect(report.entry("plain")?.tapPoint == Point(x: 70, y: 10))
    }

    @Test("a partly covered item whose centre is covered gets the centre of its largest free part")
    func coveredCentre() throws {
        let scene = try Scene(
            json: """
                {"root": {"id": "screen", "frame": [0, 0, 40, 40], "children": [
                  {"id": "box", "frame": [0, 0, 10, 10], "focusable": true},
                  {"id": "lid", "frame": [0, 0, 10, 6], "focusable": true}]}}
                """, file: "lid.json")
        let (_, focus) = scene.makeDispatcher()
        let box = try #require(PointerTargetReport(focus).entry("box"))
        #expect(box.reach == .partly(coveredBy: ["lid"]))
        #expect(box.tapPoint == Point(x: 5, y: 8))
        #expect(focus.item(at: Point(x: 5, y: 8))?.focusDebugName == "box")
    }

    @Test("the report as text: a heading with the counts, one line per item, the conflict said plainly")
    func text() throws {
        let (_, _, report) = try Self.report()
        let text = report.description
        #expect(text.hasPrefix("Touch and pointer targets: 7 items, 1 conflicts\n"))
        #expect(text.contains("  under (0, 30, 20×10): covered by over: a tap never reaches it\n"))
        #expect(text.contains("  open (0, 0, 40×20): partly covered by badge; a tap: screen performs open\n"))
    }

    @Test("inside a dialog only the dialog's items are targets: the screen behind takes no tap")
    func modal() throws {
        let (scene, focus, _) = try Self.report()
        let dialog = FocusNode(identifier: "dialog", frame: Rect(x: 20, y: 10, width: 60, height: 40))
        let ok = FocusNode(identifier: "ok", frame: Rect(x: 30, y: 20, width: 20, height: 10))
        ok.isFocusable = true
        dialog.addChild(ok)
        try #require(scene.nodes["screen"]).addChild(dialog)
        focus.presentModal(dialog)
        focus.updateFocusIfNeeded()
        #expect(PointerTargetReport(focus).entries.map(\.item) == ["ok"])
    }
}
