import EventLoop
import Foundation
import LinuxSystem
import ResponderChain
import Synchronization
import Testing

/// What main-actor work did, in order.
@MainActor final class MainActorLog {
    var entries: [String] = []
}

// The loop on its own: no device, no dispatcher.
@MainActor @Suite struct EventLoopTests {
    @Test(
        "an idle loop sleeps: it wakes only when another thread hands it work or stops it, and runs work on its own thread"
    )
    func idleAndControl() throws {
        var options = EventLoop.Options()
        // Other tests' main-actor work would wake it too; that path has its own test below.
        options.drainsMainQueue = false
        let loop = try EventLoop(options: options)
        var wakeups = 0
        loop.afterBatch = { wakeups += 1 }
        let loopThread = pthread_self()
        let ranOn = MainActorLog()
        let control = loop.control
        Thread.detachNewThread {
            usleep(150_000)
            control.perform { ranOn.entries.append(pthread_equal(pthread_self(), loopThread) != 0 ? "loop" : "other") }
            usleep(250_000)
            control.stop()
        }
        try loop.run()
        #expect(ranOn.entries == ["loop"], "the work ran once, on the loop's thread")
        #expect(
            wakeups >= 1 && wakeups <= 2, "one wake-up for the work and one for stop (they may coalesce), none idle")
    }

    @Test("a main-actor task awaits work off the main actor, then updates the tree, while `await run()` waits")
    func mainActorTaskResumesInsideRun() async throws {
        let window = Window(identifier: "window")
        let node = FocusNode(identifier: "loading")
        window.addChild(node)
        let loop = try EventLoop()
        // A watchdog, so that a loop that never runs the task fails instead of hanging. Generous:
        // the other main-actor tests of the run share the actor, and under a sanitizer the
        // million-event test alone holds it for over a minute.
        let control = loop.control
        let watchdog = Thread {
            sleep(600)
            control.stop()
        }
        watchdog.start()
        var steps: [String] = []
        Task { @MainActor in
            steps.append("task started")
            let sum = await Task.detached { (1...1000).reduce(0, +) }.value
            try? await Task.sleep(for: .milliseconds(20))
            node.identifier = "loaded \(sum)"
            MainActor.assertIsolated()
            steps.append("resumed on the main actor")
            loop.control.stop()
        }
        try await loop.run()
        watchdog.cancel()
        #expect(steps == ["task started", "resumed on the main actor"])
        #expect(node.identifier == "loaded 500500", "the task stopped the loop, not the watchdog")
    }

    @Test("Control.perform runs its closure isolated to the main actor: it may change the tree")
    func performTouchesTree() async throws {
        let window = Window(identifier: "window")
        let node = FocusNode(identifier: "before")
        window.addChild(node)
        let loop = try EventLoop()
        let control = loop.control
        Thread.detachNewThread {
            control.perform {
                node.identifier = "after"
                control.stop()
            }
        }
        try await loop.run()
        #expect(node.identifier == "after")
    }

    @Test(
        "the blocking run() off the main thread (here, in an async test) refuses to starve the main actor, and says what to call"
    )
    func blockingRunOffMainThread() throws {
        let loop = try EventLoop()
        #expect {
            try loop.run()
        } throws: { error in
            "\(error)".contains("call `try await loop.run()` from async code")
        }
    }

    @Test("runOnce returns after its timeout when nothing happens, and false once stopped")
    func runOnce() throws {
        let loop = try EventLoop()
        #expect(loop.runOnce(timeout: 0.01))
        loop.control.stop()
        #expect(!loop.runOnce(timeout: 0))
        loop.dispatchPending()
        #expect(loop.fileDescriptor >= 0)
    }

    @Test("a watched pipe is served when readable, told when its writer hung up, and silent once unwatched")
    func watchReadinessAndHangUp() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        var seen: [String] = []
        let token = try loop.watch(fds[0]) { readiness in
            var byte: UInt8 = 0
            let count = read(fds[0], &byte, 1)
            seen.append(readiness.hangUp && count == 0 ? "hung up" : "read \(byte)")
        }
        var seven: UInt8 = 7
        _ = write(fds[1], &seven, 1)
        loop.runOnce(timeout: 1)
        close(fds[1])
        loop.runOnce(timeout: 1)
        loop.unwatch(token)
        #expect(loop.runOnce(timeout: 0.01))
        #expect(seen == ["read 7", "hung up"])
    }

    @Test(
        "a deadline wakes an idle loop when due and fires once per batch; batch work runs in order, then afterBatch, then work after the frame"
    )
    func deadlinesAndBatchOrder() throws {
        var options = EventLoop.Options()
        options.drainsMainQueue = false
        let loop = try EventLoop(options: options)
        var due: Double? = EventLoop.monotonicNow + 0.05
        var order: [String] = []
        let deadline = loop.addDeadline({ due }) { now in
            if let time = due, now >= time {
                order.append("fired")
                due = nil
            }
        }
        loop.addBatchHandler { order.append("first") }
        let second = loop.addBatchHandler { order.append("second") }
        let flush = loop.addBatchHandler(afterFrame: true) { order.append("flush") }
        loop.afterBatch = { order.append("after") }
        #expect(loop.nextDeadline == due)
        let start = EventLoop.monotonicNow
        loop.runOnce(timeout: nil)  // no descriptor is ready: only the deadline can end the wait
        #expect(EventLoop.monotonicNow - start >= 0.04)
        #expect(order == ["fired", "first", "second", "after", "flush"], "work after the frame runs last")
        #expect(loop.nextDeadline == nil)
        loop.removeBatchHandler(second)
        loop.removeBatchHandler(flush)
        loop.removeDeadline(deadline)
        order = []
        loop.dispatchPending()
        #expect(order == ["first", "after"])
    }

    @Test("deadlines fire in the order they were added, on every run")
    func deadlineOrder() throws {
        let loop = try EventLoop()
        var fired: [Int] = []
        for index in 0..<20 {
            loop.addDeadline({ nil }) { _ in fired.append(index) }
        }
        loop.dispatchPending()
        #expect(fired == Array(0..<20))
    }

    @Test("writability is reported only while asked for: a full socket becomes writable when its peer reads")
    func writability() throws {
        var options = EventLoop.Options()
        options.drainsMainQueue = false
        let loop = try EventLoop(options: options)
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { pair.forEach { close($0) } }
        _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
        var seen: [EventLoop.Readiness] = []
        let token = try loop.watch(pair[0]) { seen.append($0) }
        // Fill the socket until the kernel takes no more.
        let chunk = [UInt8](repeating: 7, count: 4096)
        while chunk.withUnsafeBytes({ send(pair[0], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
        loop.runOnce(timeout: 0)
        #expect(seen.isEmpty, "not readable, and writability was not asked for")
        loop.setWatchesWritability(token, true)
        loop.runOnce(timeout: 0)
        #expect(seen.isEmpty, "full: not writable yet")
        var drain = [UInt8](repeating: 0, count: 1 << 20)
        while drain.withUnsafeMutableBytes({ recv(pair[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
        loop.runOnce(timeout: 1)
        #expect(seen.last?.writable == true && seen.last?.readable == false)
        let count = seen.count
        loop.setWatchesWritability(token, false)
        loop.runOnce(timeout: 0)
        #expect(seen.count == count, "no writability once it is not asked for")
        _ = [UInt8(1)].withUnsafeBytes { send(pair[1], $0.baseAddress, 1, 0) }
        loop.runOnce(timeout: 1)
        #expect(seen.last?.readable == true && seen.last?.writable == false)
    }

    /// The two overloads of `watch`, so that each is checked to throw.
    enum WatchOverload: String, CaseIterable, CustomTestStringConvertible {
        case handler, onReady
        var testDescription: String { rawValue }

        @MainActor func watch(_ fileDescriptor: Int32, on loop: EventLoop) throws(InputError) -> EventLoop.Watch {
            switch self {
            case .handler: try loop.watch(fileDescriptor) {}
            case .onReady: try loop.watch(fileDescriptor, onReady: { _ in })
            }
        }
    }

    @Test(
        "watching a descriptor that is not open throws the loop's InputError: epoll_ctl, EBADF, and the descriptor named",
        arguments: WatchOverload.allCases, [Int32(-1), Int32.max])
    func watchNotOpenThrows(overload: WatchOverload, fileDescriptor: Int32) throws {
        // Int32.max is above any process's descriptor limit: never open, whatever other tests open meanwhile.
        let loop = try EventLoop()
        let error = #expect(throws: InputError.self) { try overload.watch(fileDescriptor, on: loop) }
        #expect(error?.errno == .badFileDescriptor)
        #expect(error?.operation == "epoll_ctl")
        #expect(error?.path == nil)
        #expect(error?.message.contains("cannot watch descriptor \(fileDescriptor): ") == true)
        #expect(error?.message.contains("not an open descriptor") == true, "the reason in words")
    }

    @Test("a descriptor epoll cannot wait on (/dev/null) throws EPERM with the reason; one watched twice, EEXIST")
    func watchRefusedThrows() throws {
        var options = EventLoop.Options()
        options.drainsMainQueue = false
        let loop = try EventLoop(options: options)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        try #require(null >= 0)
        defer { close(null) }
        let refused = #expect(throws: InputError.self) { try loop.watch(null) {} }
        #expect(refused?.errno == .notPermitted)
        #expect(refused?.message.contains("descriptor \(null)") == true)
        #expect(refused?.message.contains("epoll cannot wait on it") == true)

        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { fds.forEach { close($0) } }
        var reads = 0
        let token = try loop.watch(fds[0]) {
            var byte: UInt8 = 0
            reads += read(fds[0], &byte, 1)
        }
        let twice = #expect(throws: InputError.self) { try loop.watch(fds[0]) {} }
        #expect(twice?.errno == .fileExists)
        #expect(twice?.message.contains("descriptor \(fds[0])") == true)
        var byte: UInt8 = 1
        _ = write(fds[1], &byte, 1)
        loop.runOnce(timeout: 1)
        #expect(reads == 1, "the first watch is untouched by the refused second")
        loop.unwatch(token)
    }

    @Test(
        "tokens given back twice, or after their descriptor is watched again, do nothing; each call gets a new token"
    )
    func staleTokens() throws {
        var options = EventLoop.Options()
        options.drainsMainQueue = false
        let loop = try EventLoop(options: options)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { fds.forEach { close($0) } }
        var reads = 0
        let stale = try loop.watch(fds[0]) {}
        loop.unwatch(stale)
        let current = try loop.watch(fds[0]) {
            var byte: UInt8 = 0
            reads += read(fds[0], &byte, 1)
        }
        #expect(current != stale)
        // Stale: the descriptor is watched again under a new token, which these leave alone.
        loop.unwatch(stale)
        loop.setWatchesWritability(stale, true)
        var byte: UInt8 = 1
        _ = write(fds[1], &byte, 1)
        loop.runOnce(timeout: 1)
        #expect(reads == 1)

        var fired: [String] = []
        let gone = loop.addDeadline({ nil }) { _ in fired.append("gone") }
        let kept = loop.addDeadline({ nil }) { _ in fired.append("kept") }
        let goneBatch = loop.addBatchHandler { fired.append("gone batch") }
        let keptBatch = loop.addBatchHandler(afterFrame: true) { fired.append("kept batch") }
        #expect(gone != kept && goneBatch != keptBatch)
        for _ in 0..<2 {
            loop.removeDeadline(gone)
            loop.removeBatchHandler(goneBatch)
        }
        loop.dispatchPending()
        #expect(fired == ["kept", "kept batch"])
        loop.unwatch(current)
        loop.unwatch(current)
        loop.removeDeadline(kept)
        loop.removeBatchHandler(keptBatch)
        fired = []
        _ = write(fds[1], &byte, 1)
        loop.runOnce(timeout: 0.01)
        #expect(fired.isEmpty && reads == 1, "nothing left on the loop")
    }
}
