import EventLoop
import Glibc
import Testing

@MainActor @Suite struct SignalPipeTests {
    @Test("a signal the parent process left blocked still reaches the pipe")
    func unblocksInheritedMask() throws {
        // Test runners and some supervisors start programs with INT and TERM blocked; keytrace
        // would then never see Ctrl-C's signal and the terminal would stay raw.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGWINCH)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            _ = signal(SIGWINCH, SIG_DFL)
        }
        let pipe = try SignalPipe([SignalPipe.windowChanged])
        raise(SIGWINCH)
        #expect(pipe.drain() == [SIGWINCH])
    }
}
