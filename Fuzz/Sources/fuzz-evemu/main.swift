import EvdevInput
import FuzzSupport

// evemu recordings: any text parses or fails with a RecordingError; a recording that parses is
// written back to text that parses to the same recording (a lossy writer is a crash here).
fuzz { data, count in
    let text = String(decoding: bytes(data, count), as: UTF8.self)
    guard let recording = try? EvemuRecording(parsing: text, file: "fuzz.evemu") else { return 0 }
    let written = recording.text
    guard let again = try? EvemuRecording(parsing: written, file: "written.evemu") else {
        fatalError("a parsed recording was written as text that does not parse:\n\(written)")
    }
    if again != recording { fatalError("a parsed recording did not survive writing:\n\(written)") }
    return 0
}
