import EvdevInput
import FuzzSupport
import ResponderChain

/// Keeps nothing: the decoder's output is only checked not to trap.
@MainActor final class DiscardingSink: InputSink {
    func receive(_ input: InputEvent) {}
}

// evemu recordings: any text parses or fails with a RecordingError; a recording that parses is
// written back to text that parses to the same recording (a lossy writer is a crash here), and
// its events decode (keys, hats into D-pad keys, drops) as a recording and as a live device.
fuzz { data, count in
    let text = String(decoding: bytes(data, count), as: UTF8.self)
    guard let recording = try? EvemuRecording(parsing: text, file: "fuzz.evemu") else { return 0 }
    let written = recording.text
    guard let again = try? EvemuRecording(parsing: written, file: "written.evemu") else {
        fatalError("a parsed recording was written as text that does not parse:\n\(written)")
    }
    if again != recording { fatalError("a parsed recording did not survive writing:\n\(written)") }
    MainActor.assumeIsolated {
        for isLive in [false, true] {
            let decoder = EvdevDecoder(device: DeviceID(rawValue: 1), sink: DiscardingSink(), isLive: isLive)
            for event in recording.events { decoder.decode(event) }
            if isLive { decoder.resynchronize(pressedKeys: [.dpadUp], time: 0) }
        }
    }
    return 0
}
