import Testing

@Suite struct ConflictsAtEveryFocusTests {
    @Test("--conflicts --all-focus: commands only on the root are active at every focus, each heading names it")
    func rootCommandsAtEveryFocus() throws {
        let result = try KeytraceBinary.run([
            "--conflicts", "--all-focus", "--scene", KeytraceBinary.fixture("root-commands.json"),
        ])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.hasSuffix("No conflicts.\n"), "\(result.stdout)")
        for focused in ["plate", "pay", "lostTicket", "cancel"] {
            #expect(result.stdout.contains("Key commands at \(focused) on layout us: 3 commands, 0 conflicts\n"))
        }
        #expect(!result.stdout.contains("shadowed"))
        #expect(result.stdout.components(separatedBy: "F1  Help [help] on root: active").count == 5)
    }
}
