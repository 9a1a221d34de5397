import Foundation
import Testing

/// The README's "Embed it in your app" program (Sources/embed-example): the README shows the
/// file as it is, and the program runs in a real terminal.
@Suite struct EmbedExampleTests {
    static let source = KeytraceBinary.repository.appendingPathComponent("Sources/embed-example/main.swift")

    @Test("the README shows the example program exactly as it is built")
    func readmeMatches() throws {
        let program = try String(contentsOf: Self.source, encoding: .utf8)
        let readme = try String(
            contentsOf: KeytraceBinary.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + program + "```"))
        #expect(program.split(separator: "\n").count <= 45, "about 40 lines")
    }

    @Test(
        "in tmux: the field takes text, Return starts a task that hides rows, Tab and Down move in the list, Ctrl-C quits"
    )
    func runs() throws {
        let session = TmuxSession()
        defer { session.stop() }
        try session.start(
            columns: 80, rows: 12, binary: KeytraceBinary.product("embed-example"), arguments: "--terminal")
        try session.waitFor("Return to search (terminal")
        try session.send("h", "i", "Enter")
        let searched = try session.waitFor("3 rows match \"hi\"")
        #expect(searched.contains("> search: hi"))
        #expect(!searched.contains("Row 2") && searched.contains("Row 5"), "the task's tree update is drawn")
        try session.send("Tab", "Down")
        try session.waitFor("> Row 3")
        try session.send("C-c")
        try session.waitFor("EXITED 0")
        #expect(try session.settingsRestored())
    }
}
