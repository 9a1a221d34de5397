extension EventLoop {
    /// A descriptor the loop watches: what ``EventLoop/watch(_:handler:)`` and
    /// ``EventLoop/watch(_:onReady:)`` return, for ``EventLoop/unwatch(_:)`` and
    /// ``EventLoop/setWatchesWritability(_:_:)``.
    ///
    /// Only the loop makes one. The three kinds of token (this one, ``Deadline`` and
    /// ``BatchHandler``) are distinct types, so that one cannot be handed to another's call: a
    /// deadline given to `unwatch` does not compile. A token already given back does nothing.
    public struct Watch: Hashable, Sendable {
        /// The number `epoll` carries for the descriptor.
        let id: UInt64
    }

    /// A deadline the loop wakes for: what ``EventLoop/addDeadline(_:fire:)`` returns, for
    /// ``EventLoop/removeDeadline(_:)``.
    ///
    /// Only the loop makes one, and only ``EventLoop/removeDeadline(_:)`` takes it (see ``Watch``).
    /// A deadline removed already is not removed twice: the call does nothing.
    public struct Deadline: Hashable, Sendable {
        let id: UInt64
    }

    /// Work the loop does at the end of every batch: what
    /// ``EventLoop/addBatchHandler(afterFrame:_:)`` returns, for
    /// ``EventLoop/removeBatchHandler(_:)``.
    ///
    /// Only the loop makes one, and only ``EventLoop/removeBatchHandler(_:)`` takes it (see
    /// ``Watch``). Work removed already is not removed twice: the call does nothing.
    public struct BatchHandler: Hashable, Sendable {
        let id: UInt64
    }
}
