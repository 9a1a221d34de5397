import CLibFuzzer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What libFuzzer calls with each input: the bytes, and their count.
public typealias FuzzInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

/// Runs libFuzzer on `body` with the program's arguments, and exits with its status.
///
/// Each fuzz target's `main.swift` calls this with a closure that captures nothing, feeds the bytes
/// to one parser and checks what must hold of any input (no trap, bounded state, a round trip); a
/// violated check is a `fatalError`, which libFuzzer reports as a crash and saves as a `crash-*`
/// file. The closure returns 0.
public func fuzz(_ body: FuzzInput) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, body))
}

/// The input as an array of bytes (empty for an empty input).
public func bytes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let data, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: count))
}
