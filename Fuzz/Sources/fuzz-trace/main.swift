import DispatchTrace
import FuzzSupport

// Trace JSON lines, as keytrace --attach will read them: any bytes decode to an event or fail
// with a TraceDecodingError, never a trap. An event that decodes writes a line that decodes to
// the same event, and that writes the same line again.
fuzz { data, count in
    let input = bytes(data, count)
    guard let event = try? TraceEvent(jsonLine: input) else { return 0 }
    let line = event.json
    guard let again = try? TraceEvent(jsonLine: line) else {
        fatalError("the line written for a decoded event does not decode: \(line)")
    }
    guard again == event else { fatalError("the line written for a decoded event decodes differently: \(line)") }
    guard again.json == line else { fatalError("a decoded event writes another line the second time: \(line)") }
    _ = event.plainLine
    return 0
}
