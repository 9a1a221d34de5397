internal import CSeat
internal import Dispatch
internal import LinuxSystem
internal import Synchronization

/// One `libseat_open_seat` on a worker thread (a global Dispatch queue's), waited for at most a
/// timeout: libseat's seatd backend waits for seatd's answer with no timeout, so a seatd that
/// accepts the connection and is stopped (SIGSTOP) or hung would block the app for ever, silently.
/// A worker that did not finish in time is left waiting; if it ever gets the seat, it closes it.
final class SeatOpening: Sendable {
    enum Result {
        /// libseat answered: the seat, or `nil` and the error number.
        case answered(OpaquePointer?, errno: Errno)
        /// The seat manager did not answer in time.
        case timedOut
    }

    private struct State: ~Copyable {
        var finished = false
        var abandoned = false
        var handle: UInt?
        var code = Errno(rawValue: 0)
    }

    // The pointers as integers, so that the worker may take them (a raw pointer is not Sendable):
    // safe, because the listener lives as long as any worker may use it (Seat keeps it for ever
    // once a worker was abandoned) and the userdata as long as its box, and the caller waits on the
    // semaphore while the worker runs, so nothing touches them from two threads at once. libseat's
    // listener callbacks (enable_seat) may run on the worker inside libseat_open_seat; the semaphore
    // and the mutex order them before the caller reads the box.
    private let listener: UInt
    private let userdata: UInt
    private let state = Mutex(State())

    private init(listener: UnsafeMutablePointer<libseat_seat_listener>, userdata: UnsafeMutableRawPointer) {
        self.listener = UInt(bitPattern: listener)
        self.userdata = UInt(bitPattern: userdata)
    }

    /// Opens the seat through the backend `LIBSEAT_BACKEND` names, waiting at most `timeout` seconds.
    static func open(
        listener: UnsafeMutablePointer<libseat_seat_listener>, userdata: UnsafeMutableRawPointer, timeout: Double
    ) -> Result {
        let opening = SeatOpening(listener: listener, userdata: userdata)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            opening.run()
            done.signal()
        }
        _ = done.wait(timeout: .now() + max(timeout, 0.01))
        // Answered in time (or just after): the answer; else the thread is left waiting, and closes
        // the seat if it ever gets one.
        return opening.state.withLock { state in
            if state.finished {
                return .answered(state.handle.flatMap { OpaquePointer(bitPattern: $0) }, errno: state.code)
            }
            state.abandoned = true
            return .timedOut
        }
    }

    private func run() {
        let handle = libseat_open_seat(
            UnsafeMutablePointer(bitPattern: listener), UnsafeMutableRawPointer(bitPattern: userdata))
        let code = Errno.current
        let abandoned = state.withLock { state in
            state.finished = true
            state.handle = handle.map { UInt(bitPattern: $0) }
            state.code = code
            return state.abandoned
        }
        if abandoned, let handle { libseat_close_seat(handle) }
    }
}
