import FuzzSupport
import LinuxKeyboard

// Terminal input, with and without the kitty protocol's event types, whole and a byte at a time:
// no trap, and what the decoder holds back never exceeds one sequence's bound.
fuzz { data, count in
    let input = bytes(data, count)
    for kitty in [false, true] {
        var whole = TerminalKeyDecoder(reportsEventTypes: kitty)
        _ = whole.decode(input)
        var split = TerminalKeyDecoder(reportsEventTypes: kitty)
        for byte in input {
            _ = split.decode([byte], endOfInput: false)
            if split.pendingByteCount > TerminalKeyDecoder.maximumSequenceLength {
                fatalError("the decoder holds \(split.pendingByteCount) bytes")
            }
        }
        _ = split.decode([], endOfInput: true)
        // Only an unfinished bracketed paste may keep bytes (a possible start of its end marker).
        if split.pendingByteCount != 0 && !split.isPasting { fatalError("bytes left after the end of input") }
    }
    return 0
}
