import ResponderChain
import Testing

@MainActor @Suite struct DeviceIDTests {
    @Test("every source of a dispatcher takes fresh device ids from it: never primary, never the same twice")
    func freshIDs() {
        let dispatcher = Dispatcher(window: Window())
        let ids = (0..<100).map { _ in dispatcher.makeDeviceID() }
        #expect(Set(ids).count == 100)
        #expect(!ids.contains(.primary))
        let other = Dispatcher(window: Window())
        #expect(other.makeDeviceID() == ids[0], "ids are per dispatcher")
    }
}
