import DispatchTrace
import FuzzSupport
import Inspection
import ResponderChain

// What keytrace --attach reads from an app's socket: any bytes, split into lines with the
// reader's bound, decode to messages or fail with an InspectionError, never a trap. A message
// that decodes writes a line that decodes to the same message; a snapshot's tree rebuilds as a
// scene or fails with a SceneError.
fuzz { data, count in
    var reader = InspectionLineReader(maximumLength: InspectionProtocol.maximumLineLength)
    reader.append(bytes(data, count) + [UInt8(ascii: "\n")])
    while let line = try? reader.nextLine() {
        guard let message = try? InspectionMessage(jsonLine: line) else { continue }
        var out = ByteWriter(capacity: 256)
        message.writeJSON(to: &out)
        let written = out.withBytes { Array($0) }
        guard let again = try? InspectionMessage(jsonLine: written) else {
            fatalError(
                "the line written for a decoded message does not decode: \(String(decoding: written, as: UTF8.self))")
        }
        guard again == message else {
            fatalError(
                "the line written for a decoded message decodes differently: \(String(decoding: written, as: UTF8.self))"
            )
        }
        if case .snapshot(let snapshot) = message {
            // Fuzz targets run on the main thread.
            MainActor.assumeIsolated {
                if let scene = try? snapshot.makeScene() { _ = scene.makeDispatcher() }
            }
        }
    }
    return 0
}
