import ResponderChain
import ResponderChainTesting
import Testing

@MainActor @Suite struct ResponderTests {
    @Test("becomeFirstResponder needs a window and canBecomeFirstResponder")
    func becomeRules() {
        let window = Window(identifier: "w")
        let loose = RecordingResponder("loose", canBecomeFirstResponder: true)
        #expect(!loose.becomeFirstResponder(), "not in a window")
        let label = RecordingResponder("label")
        window.addChild(label)
        #expect(!label.becomeFirstResponder())
        window.addChild(loose)
        #expect(loose.becomeFirstResponder())
        #expect(loose.isFirstResponder && window.firstResponder === loose)
        #expect(loose.becomeFirstResponder(), "already first responder")
    }

    @Test("a first responder that refuses to resign keeps its status")
    func refusesToResign() {
        let window = Window()
        let a = RecordingResponder("a", canBecomeFirstResponder: true)
        let b = RecordingResponder("b", canBecomeFirstResponder: true)
        window.addChild(a)
        window.addChild(b)
        a.becomeFirstResponder()
        a.acceptsResigning = false
        #expect(!b.becomeFirstResponder())
        #expect(!a.resignFirstResponder())
        #expect(a.isFirstResponder)
        a.acceptsResigning = true
        #expect(b.becomeFirstResponder())
        #expect(!a.isFirstResponder && b.isFirstResponder)
        #expect(b.resignFirstResponder())
        #expect(window.firstResponder == nil)
    }

    @Test("the next responder is the parent, and target(forAction:) walks it")
    func targetForAction() {
        let window = Window(identifier: "w")
        let app = RecordingResponder("app", performs: [.quit])
        let row = RecordingResponder("row", performs: [.delete])
        window.addChild(app)
        app.addChild(row)
        #expect(row.nextResponder === app && app.nextResponder === window && window.nextResponder == nil)
        #expect(row.target(forAction: .delete, sender: .application) === row)
        #expect(row.target(forAction: .quit, sender: .application) === app)
        #expect(row.target(forAction: .find, sender: .application) == nil)
        row.becomeFirstResponder()
        row.acceptsFirstResponder = true
        row.becomeFirstResponder()
        #expect(window.sendAction(.quit))
        #expect(app.performedActions == [.quit])
        #expect(!window.sendAction(.find))
    }

    @Test("a subclass can redirect target(forAction:)")
    func overriddenTarget() {
        final class Forwarder: Responder {
            let delegate: Responder
            init(_ delegate: Responder) {
                self.delegate = delegate
                super.init(identifier: "forwarder")
            }
            override func target(forAction action: Action, sender: ActionSender) -> Responder? {
                delegate.canPerformAction(action, sender: sender)
                    ? delegate : super.target(forAction: action, sender: sender)
            }
        }
        let window = Window()
        let helper = RecordingResponder("helper", performs: [.help])
        let forwarder = Forwarder(helper)
        let child = RecordingResponder("child")
        window.addChild(forwarder)
        forwarder.addChild(child)
        #expect(child.target(forAction: .help, sender: .application) === helper)
    }

    @Test("adding moves a responder; removing a subtree takes the first responder with it")
    func treeEdits() {
        let window = Window(identifier: "w")
        let a = RecordingResponder("a")
        let b = RecordingResponder("b")
        let leaf = RecordingResponder("leaf", canBecomeFirstResponder: true)
        window.addChild(a)
        window.addChild(b)
        a.addChild(leaf)
        #expect(leaf.window === window)
        leaf.becomeFirstResponder()
        b.insertChild(leaf, at: 0)
        #expect(a.children.isEmpty && b.children.first === leaf && leaf.parent === b)
        #expect(leaf.isFirstResponder, "moving within the window keeps it")
        b.removeFromParent()
        #expect(leaf.window == nil && b.window == nil)
        #expect(window.firstResponder == nil)
        window.checkTreeInvariants()
        b.checkTreeInvariants()
    }

    @Test("traceName is the identifier, else the type name")
    func traceNames() {
        final class PlainView: Responder {}
        #expect(PlainView().traceName == "PlainView")
        #expect(RecordingResponder("named").traceName == "named")
        #expect(Window().traceName == "Window")
    }
}
