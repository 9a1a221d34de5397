/// An unretained reference, for the links that never outlive their target by construction: a
/// child's link to its parent and to its window, a window's link to its dispatcher, a press's
/// list of the responders it was delivered to. Every unretained link in the core goes through
/// this type.
///
/// Why not `weak`: a weak reference gives its target a side table, which sends every retain and
/// release of that object down the slow path (measured: 45% of dispatch time when the tree links
/// were weak). Why not `Unmanaged` or `unowned(unsafe)` alone: a broken invariant would read freed
/// memory silently. Debug builds keep a weak shadow next to each link and stop with the target's
/// type when a link is followed after its target is gone; release builds carry the bare pointer.
/// A link is not followed from its target's deinit (a weak reference reads `nil` from the moment
/// deinit starts): compare with `refers(to:)` there.
package struct UnownedRef<Target: AnyObject> {
    private let unmanaged: Unmanaged<Target>
    #if DEBUG
        private weak var shadow: Target?
    #endif

    /// A link to `target`, which must outlive it.
    @inline(__always)
    package init(_ target: Target) {
        unmanaged = .passUnretained(target)
        #if DEBUG
            shadow = target
        #endif
    }

    /// The target, retained for the caller.
    @inline(__always)
    package var target: Target {
        checkAlive()
        return unmanaged.takeUnretainedValue()
    }

    /// Calls `body` with the target borrowed rather than retained (the tree keeps it alive).
    /// Keep `body` small enough to inline: a main-actor closure that is not inlined checks the
    /// executor at every call.
    @inline(__always)
    package func withTarget<Result>(_ body: (Target) -> Result) -> Result {
        checkAlive()
        return unmanaged._withUnsafeGuaranteedRef(body)
    }

    /// Whether the link points at `object`: an address comparison that follows neither (safe
    /// while `object` is being deinitialized).
    @inline(__always)
    package func refers(to object: AnyObject) -> Bool {
        unmanaged.toOpaque() == Unmanaged.passUnretained(object).toOpaque()
    }

    @inline(__always)
    private func checkAlive() {
        #if DEBUG
            if shadow == nil {
                preconditionFailure("an unretained link to a \(Target.self) was followed after its target was freed")
            }
        #endif
    }
}
