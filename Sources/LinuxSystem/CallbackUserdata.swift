internal import Synchronization

/// The `void *userdata` a C library keeps and hands back to its callbacks (libseat's listener,
/// and next Wayland's listeners and libinput's interface): a retained reference to `Target`,
/// released exactly once. Every C callback's userdata in the package goes through this type, as
/// every unretained link of the core goes through `UnownedRef`.
///
/// Why not `Unmanaged` alone: a pointer read back after it was released, or as the wrong type,
/// would read freed or foreign memory silently. Debug builds record each live pointer with its
/// type and stop, naming both, when a callback reads a pointer that was released or made for
/// another type, or when one is released twice; release builds are the bare `Unmanaged` calls.
package struct CallbackUserdata<Target: AnyObject> {
    /// The pointer to give the C library.
    package let pointer: UnsafeMutableRawPointer

    /// Retains `target` until ``release()``.
    ///
    /// - Parameter target: What the callbacks reach.
    package init(retaining target: Target) {
        pointer = Unmanaged.passRetained(target).toOpaque()
        #if DEBUG
            let key = UInt(bitPattern: pointer)
            liveUserdata.withLock { $0[key] = ObjectIdentifier(Target.self) }
        #endif
    }

    /// The target a callback was given: `nil` for a null pointer.
    ///
    /// - Parameter pointer: The userdata the C library passed.
    /// - Returns: The target, not retained for the caller beyond the call.
    package static func target(from pointer: UnsafeMutableRawPointer?) -> Target? {
        guard let pointer else { return nil }
        #if DEBUG
            let key = UInt(bitPattern: pointer)
            let type = liveUserdata.withLock { $0[key] }
            precondition(
                type == ObjectIdentifier(Target.self),
                "C callback userdata \(pointer) is not a live \(Target.self): it was released, or made for another type"
            )
        #endif
        return Unmanaged<Target>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Whether the pointer is still live (debug builds; release builds answer `true`).
    package var isLive: Bool {
        #if DEBUG
            let key = UInt(bitPattern: pointer)
            return liveUserdata.withLock { $0[key] } != nil
        #else
            return true
        #endif
    }

    /// Releases the target: call it once, after the C library can no longer call back.
    package func release() {
        #if DEBUG
            let key = UInt(bitPattern: pointer)
            let type = liveUserdata.withLock { $0.removeValue(forKey: key) }
            precondition(type != nil, "C callback userdata for a \(Target.self) released twice")
        #endif
        Unmanaged<Target>.fromOpaque(pointer).release()
    }
}

#if DEBUG
    /// The live userdata pointers and their types (debug builds only).
    private let liveUserdata = Mutex<[UInt: ObjectIdentifier]>([:])
#endif
