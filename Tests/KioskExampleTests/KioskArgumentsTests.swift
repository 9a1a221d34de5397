import Testing

@testable import KioskExample

/// The kiosk's command line: `--rtl` chooses the Hebrew face for a running kiosk as for a snapshot.
@Suite struct KioskArgumentsTests {
    @Test("--rtl runs the Hebrew face; without it the face is English", arguments: [true, false])
    func rightToLeft(given: Bool) {
        let (_, files) = parseArguments(["--display", "--on-screen-keyboard"] + (given ? ["--rtl"] : []))
        #expect(files.rightToLeft == given)
        #expect(files.alwaysShowsKeyboard)
        #expect(files.snapshot == nil)
    }

    @Test("--rtl with --snapshot goes to the snapshot's request, not to a running kiosk")
    func rightToLeftSnapshot() {
        let (_, files) = parseArguments(["--snapshot", "home.png", "--rtl"])
        #expect(files.snapshot?.rightToLeft == true)
        #expect(!files.rightToLeft)
    }
}
