/// A listener struct (a C struct of `@convention(c)` functions) given the stable address
/// libwayland keeps for the proxy's whole life: allocated once, never freed, for the process.
///
/// - Parameter listener: The listener's functions.
/// - Returns: Its address.
func staticListener<Listener>(_ listener: Listener) -> UnsafeMutablePointer<Listener> {
    let pointer = UnsafeMutablePointer<Listener>.allocate(capacity: 1)
    pointer.initialize(to: listener)
    return pointer
}
