import FuzzSupport
import ResponderChain
import TerminalIO

// Terminal input, with and without the kitty protocol's event types, whole and a byte at a time:
// no trap; what the decoder holds back never exceeds one sequence's bound; without event types no
// key is left down after any read; and a Ctrl-C byte after any input is the quit chord: a fresh
// press of C with Control and no other modifier down. It comes at once when no paste is open (a
// sequence left unfinished by the input was dropped at its end, an overlong one ends at the
// byte), and after `pasteTimeout` without a byte when one is (the paste is then delivered first).

/// The keys down as a dispatcher would see them from the events so far.
struct Held {
    var keys: Set<KeyCode> = []
    var quitChords = 0
    var otherCPresses = 0

    mutating func apply(_ events: [InputEvent]) {
        for input in events {
            switch input {
            case .key(let event):
                switch event.action {
                case .up: keys.remove(event.code)
                case .repeat: break
                case .down:
                    if event.code == .c {
                        let flags = keys.reduce(into: ModifierFlags()) { $0.formUnion($1.heldModifier ?? []) }
                        if !keys.contains(.c) && flags == .control { quitChords += 1 } else { otherCPresses += 1 }
                    }
                    keys.insert(event.code)
                }
            case .cancelKey(let code, _, _):
                keys.remove(code)
            case .text:
                break
            case .resynchronize, .deviceRemoved, .keyboardLost, .modifiers, .pointer, .layout, .locks:
                fatalError("the terminal decoder made \(input)")
            }
        }
    }
}

func check(_ input: [UInt8], kitty: Bool, split: Bool) {
    var decoder = TerminalKeyDecoder(reportsEventTypes: kitty)
    var held = Held()
    let reads: [ArraySlice<UInt8>] = split ? input.indices.map { input[$0...$0] } : [input[...]]
    for read in reads {
        held.apply(decoder.decode(read, endOfInput: !split, time: 0))
        if decoder.pendingByteCount > TerminalKeyDecoder.maximumSequenceLength {
            fatalError("the decoder holds \(decoder.pendingByteCount) bytes")
        }
        if !kitty && !held.keys.isEmpty { fatalError("without event types, \(held.keys) left down") }
    }
    held.apply(decoder.decode([], endOfInput: true, time: 0))
    // Only an unfinished bracketed paste may keep bytes (a possible start of its end marker).
    if decoder.pendingByteCount != 0 && !decoder.isPasting { fatalError("bytes left after the end of input") }
    let time = decoder.isPasting ? TerminalKeyDecoder.pasteTimeout : 0
    var after = held
    after.quitChords = 0
    after.otherCPresses = 0
    after.apply(decoder.decode([0x03], time: time))
    if after.quitChords != 1 || after.otherCPresses != 0 {
        fatalError("Ctrl-C after the input is not the quit chord (kitty: \(kitty), split: \(split))")
    }
    if decoder.isPasting || decoder.pendingByteCount != 0 { fatalError("Ctrl-C left a paste or bytes open") }
    if !kitty && !after.keys.isEmpty { fatalError("without event types, \(after.keys) left down after Ctrl-C") }
}

fuzz { data, count in
    let input = bytes(data, count)
    for kitty in [false, true] {
        check(input, kitty: kitty, split: false)
        check(input, kitty: kitty, split: true)
    }
    return 0
}
