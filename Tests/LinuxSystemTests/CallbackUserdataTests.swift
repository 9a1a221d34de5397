import LinuxSystem
import Testing

/// What a C library's callbacks reach through their userdata.
final class CallbackTarget {
    var calls = 0
}

@Suite struct CallbackUserdataTests {
    @Test("a callback reaches the target through the pointer; release frees it exactly once")
    func roundTrip() {
        weak var freed: CallbackTarget?
        do {
            let target = CallbackTarget()
            freed = target
            let userdata = CallbackUserdata(retaining: target)
            // What a C library does: keep the raw pointer, hand it back to a callback.
            let raw: UnsafeMutableRawPointer? = userdata.pointer
            CallbackUserdata<CallbackTarget>.target(from: raw)?.calls += 1
            #expect(target.calls == 1)
            #expect(CallbackUserdata<CallbackTarget>.target(from: nil) == nil)
            #expect(userdata.isLive)
            userdata.release()
            #expect(!userdata.isLive)
        }
        #expect(freed == nil, "release gave back the retain the userdata held")
    }

    #if DEBUG
        @Test("debug builds stop a callback that reads a released pointer, naming the type")
        func readAfterRelease() async {
            await #expect(processExitsWith: .failure) {
                let userdata = CallbackUserdata(retaining: CallbackTarget())
                userdata.release()
                _ = CallbackUserdata<CallbackTarget>.target(from: userdata.pointer)
            }
        }

        @Test("debug builds stop a callback that reads a pointer as another type")
        func readAsOtherType() async {
            await #expect(processExitsWith: .failure) {
                let userdata = CallbackUserdata(retaining: CallbackTarget())
                _ = CallbackUserdata<Other>.target(from: userdata.pointer)
            }
        }
    #endif
}

/// Another type than the pointer was made for.
final class Other {}
