import ResponderChain
import ResponderChainTesting
import Testing

extension Action {
    static let find: Action = "find"
    static let quit: Action = "quit"
}

@MainActor @Suite struct TraceRecorderTests {
    @MainActor struct Scene {
        let window = Window(identifier: "window")
        let app = RecordingResponder("app", performs: [.find])
        let editor = RecordingResponder("editor", handles: [.j], canBecomeFirstResponder: true)
        let dispatcher: Dispatcher
        let keyboard: VirtualKeyboard
        let trace: TraceRecorder

        init() {
            window.addChild(app)
            app.addChild(editor)
            editor.becomeFirstResponder()
            editor.keyCommands = [KeyCommand("f", modifierFlags: .control, action: .find, title: "Find")]
            dispatcher = Dispatcher(window: window)
            keyboard = VirtualKeyboard(dispatcher)
            trace = TraceRecorder(dispatcher)
        }
    }

    @Test("queries: fired commands, presses per responder, unhandled keys, taking stages")
    func queries() {
        let scene = Scene()
        scene.keyboard.tap("ctrl+f")
        scene.keyboard.tap("j")
        scene.keyboard.tap("f9")
        #expect(scene.trace.firedKeyCommands.map(\.command.title) == ["Find"])
        #expect(scene.trace.firedKeyCommands.first?.target.refers(to: scene.app) == true)
        #expect(
            scene.trace.presses(deliveredTo: scene.editor).map(\.phase) == [
                .began, .ended, .began, .ended, .began, .ended,
            ])
        #expect(scene.trace.unhandledKeys.map(\.keyCode) == [.leftControl, .f9])
        #expect(scene.trace.takingStages == [.unhandled, .keyCommands, .presses, .unhandled])
        scene.trace.clear()
        #expect(scene.trace.records.isEmpty)
    }

    @Test("assertions pass when the trace shows what they expect")
    func passingAssertions() {
        let scene = Scene()
        scene.keyboard.tap("ctrl+f")
        scene.trace.expectKeyCommand(.find)
        scene.trace.expectKeyCommand(.find, declaredBy: scene.editor)
        scene.trace.expectStageTook(.keyCommands)
        scene.trace.clear()
        scene.keyboard.tap("j")
        scene.trace.expectPressesBegan(on: scene.editor, key: .j)
        scene.trace.expectNoKeyCommand()
        scene.keyboard.tap("f9")
        scene.trace.expectUnhandled(.f9)
    }

    @Test("assertions record an issue when the trace does not show what they expect, and say what it shows")
    func failingAssertions() {
        let scene = Scene()
        scene.keyboard.tap("j")
        #expect(
            scene.trace.keyCommandFailure(.find)?.hasPrefix("expected key command find to fire; fired: none\n") == true)
        scene.keyboard.tap("ctrl+f")
        #expect(scene.trace.keyCommandFailure(.find) == nil)
        let wrongDeclarer = scene.trace.keyCommandFailure(.find, declaredBy: scene.app)
        #expect(wrongDeclarer?.hasPrefix("expected key command find declared by app to fire; fired: ") == true)
        #expect(wrongDeclarer?.contains(" on editor") == true, "names who declared the command that fired")
        #expect(scene.trace.noKeyCommandFailure()?.hasPrefix("expected no key command; fired: ") == true)
        #expect(
            scene.trace.pressesBeganFailure(on: scene.app, key: .j)?.hasPrefix("expected pressesBegan for KeyJ on app")
                == true)
        #expect(scene.trace.unhandledFailure(.j)?.hasPrefix("expected KeyJ to be unhandled; trace:\n") == true)
        #expect(
            scene.trace.stageTookFailure(.reservedShortcuts)?.hasPrefix(
                "expected stage reservedShortcuts to take a key; trace:\n") == true)
    }
}
