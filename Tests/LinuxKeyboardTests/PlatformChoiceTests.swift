import LinuxKeyboard
import ResponderChain
import Testing

/// A source made for these tests (a fake: it reads nothing), for a platform to register.
@MainActor final class FakeSource: InputSource {
    let inputName: String
    var inputNote: String? { nil }
    var onDeviceChange: ((InputDeviceChange) -> Void)?
    init(_ name: String) { inputName = name }
    func start() throws {}
    func stop() {}
}

/// A platform made for these tests (a fake: what it opens is a source that reads nothing), standing
/// for a fourth platform added outside this package: it conforms to `AppPlatform` and nothing else.
@MainActor final class FakePlatform: AppPlatform {
    let name: String
    let reason: String?
    let failure: String?
    let source: FakeSource

    init(_ name: String, reason: String? = nil, failure: String? = nil) {
        self.name = name
        self.reason = reason
        self.failure = failure
        source = FakeSource(name)
    }

    var title: String { "the \(name)" }
    private(set) var events: [String] = []

    func probe(_ environment: PlatformEnvironment) -> String? {
        events.append("probe")
        return reason
    }

    func prepare(_ environment: PlatformEnvironment) {
        events.append("prepare")
    }

    func open(_ context: PlatformContext) throws(AppError) {
        events.append(context.hasAlternative ? "open, then others" : "open, last")
        // Registers first, then fails (a platform half open): the app must take it back.
        context.application.setPrimaryInput(source, fallsBackToTerminal: false)
        context.application.add(FakeSource("\(name)'s extra"))
        if let failure { throw AppError(code: .input, message: failure) }
    }

    var note: String? { "\(name) runs" }
}

/// How `KeyboardApp` picks its platform, as wlroots' autocreate and Qt's platform plug-ins do:
/// probed in the app's order, passed over with a reason, the next tried when one fails to open.
@MainActor @Suite struct PlatformChoiceTests {
    func configuration() -> KeyboardApp.Configuration {
        var configuration = KeyboardApp.Configuration()
        configuration.environment = [:]
        configuration.inspection.isEnabled = false
        return configuration
    }

    @Test("the first platform whose probe says yes opens; those before it are passed over with their reasons")
    func order() throws {
        let first = FakePlatform("first", reason: "not here")
        let second = FakePlatform("second")
        let third = FakePlatform("third")
        let app = try KeyboardApp(
            window: Window(), root: FocusNode(), configuration: configuration(), platforms: [first, second, third])
        #expect(app.platform === second)
        #expect(first.events == ["probe"])
        #expect(second.events == ["probe", "prepare", "open, then others"])
        #expect(third.events == ["probe"], "probed, never opened")
        #expect(app.platformNote == "first: not here")
        #expect(app.platformFailures.isEmpty)
        #expect(app.inputNote == "second runs")
    }

    @Test("a platform that fails to open is passed over when another follows, and the note says why")
    func failureGoesOn() throws {
        let broken = FakePlatform("broken", failure: "the broken device is gone")
        let console = FakePlatform("spare")
        let app = try KeyboardApp(
            window: Window(), root: FocusNode(), configuration: configuration(), platforms: [broken, console])
        #expect(app.platform === console)
        #expect(broken.events == ["probe", "prepare", "open, then others"])
        #expect(console.events == ["probe", "prepare", "open, last"])
        #expect(app.platformFailures == ["the broken device is gone; going on without the broken"])
        #expect(app.platformsPassedOver.map(\.reason) == ["the broken device is gone"])
        #expect(app.inputNote == "the broken device is gone; going on without the broken; spare runs")
    }

    @Test("what a platform registered before it failed is taken back: the next one's input is the app's alone")
    func failureTakenBack() throws {
        let broken = FakePlatform("broken", failure: "half open")
        let spare = FakePlatform("spare")
        let later = FakePlatform("later", reason: "never reached")
        let app = try KeyboardApp(
            window: Window(), root: FocusNode(), configuration: configuration(), platforms: [broken, spare, later])
        #expect(app.application.primaryInput === spare.source)
        try app.openInput()
        #expect(app.application.sources.map(\.inputName) == ["spare", "spare's extra"], "nothing of broken's")
        #expect(
            app.platformsPassedOver.map(\.platform) == ["broken"], "platforms after the one that runs are not named")
        app.stop()
    }

    @Test("the console with no terminal to draw on says the app is not shown, and which platform would show it")
    func consoleWithoutTerminal() throws {
        var configuration = configuration()
        configuration.input = .terminal
        let application = try Application(window: Window(), root: FocusNode())
        let console = ConsolePlatform()
        func open(terminal: Bool, drawing: Bool) throws -> String? {
            configuration.usesTerminalForOutput = drawing
            try console.open(
                PlatformContext(
                    application: application,
                    environment: PlatformEnvironment(
                        variables: [:], configuration: configuration, hasTerminal: terminal),
                    hasAlternative: false))
            return console.note
        }
        #expect(try open(terminal: true, drawing: true) == nil)
        #expect(try open(terminal: false, drawing: false) == nil, "a tool writing lines draws nothing anyway")
        let note = try #require(try open(terminal: false, drawing: true))
        #expect(note.hasPrefix("no terminal to draw on") && note.contains("DisplayPlatform"))
    }

    @Test("the last platform's failure is the app's: KeyboardApp throws it")
    func lastFailureThrows() {
        let only = FakePlatform("only", failure: "nothing to open")
        #expect {
            try KeyboardApp(window: Window(), root: FocusNode(), configuration: configuration(), platforms: [only])
        } throws: { error in
            (error as? AppError)?.message == "nothing to open"
        }
        #expect(only.events == ["prepare", "open, last"], "listed alone: not probed, the app asked for it")
    }

    @Test("when every probe says no, the last listed is still opened: the app must run on something")
    func lastResort() throws {
        let first = FakePlatform("first", reason: "no")
        let last = FakePlatform("last", reason: "no either")
        let app = try KeyboardApp(
            window: Window(), root: FocusNode(), configuration: configuration(), platforms: [first, last])
        #expect(app.platform === last)
        #expect(last.events == ["prepare", "open, last"])
        #expect(app.platformNote == "first: no")
    }

    @Test("no platform listed: a clear error, not a crash")
    func none() {
        #expect {
            try KeyboardApp(window: Window(), root: FocusNode(), configuration: configuration(), platforms: [])
        } throws: { error in
            (error as? AppError)?.message.contains("lists no platform") == true
        }
    }

    @Test("the console platform by default: the keyboards as the primary input, the terminal as their fallback")
    func consoleByDefault() throws {
        var configuration = configuration()
        configuration.input = .keyboards
        let app = try KeyboardApp(window: Window(), root: FocusNode(), configuration: configuration)
        #expect(app.platform is ConsolePlatform)
        #expect(app.keyboards != nil && app.keyboards === (app.platform as? ConsolePlatform)?.keyboards)
        configuration.input = .terminal
        let terminal = try KeyboardApp(window: Window(), root: FocusNode(), configuration: configuration)
        #expect(terminal.keyboards == nil, "the terminal asked for: no keyboards set")
    }
}
