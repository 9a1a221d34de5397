extension LibinputEvent {
    /// Reads a compact binary script of libinput dispatches: a fuzzer's input, or a regression
    /// input that once crashed the decoder. Each event is an opcode byte (taken modulo 12)
    /// followed by its fields: a device number byte, then little-endian 32-bit words (slots and
    /// button codes as they are; positions and motion as the bits of a 32-bit float, so that NaN
    /// and infinities come too). Opcode 10 ends a dispatch (a batch), 11 is a no-op; a script that
    /// ends inside an event ends there. Times grow by 10 ms an event. At most `limit` events are read.
    ///
    /// Opcodes: 0 added (device, kind byte, output byte: 0 none, 1 `Virtual-1`, else `HDMI-A-1`),
    /// 1 removed, 2 motion (dx, dy), 3 absolute (x, y), 4 button (code, pressed byte), 5 touch
    /// down (slot, x, y), 6 touch motion (slot, x, y), 7 touch up (slot), 8 touch cancel (slot),
    /// 9 frame.
    ///
    /// - Parameters:
    ///   - bytes: The script.
    ///   - limit: The most events to read.
    /// - Returns: The batches, each one dispatch's events.
    public static func script(_ bytes: [UInt8], limit: Int = 4096) -> [[LibinputEvent]] {
        var index = 0
        var batches: [[LibinputEvent]] = []
        var batch: [LibinputEvent] = []
        var count = 0
        func byte() -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }
        func word() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            defer { index += 4 }
            return UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
                | UInt32(bytes[index + 3]) << 24
        }
        func float() -> Double? { word().map { Double(Float(bitPattern: $0)) } }
        func slot() -> Int32? { word().map { Int32(bitPattern: $0) } }
        let kinds = LibinputDeviceKind.allCases
        reading: while index < bytes.count, count < limit {
            let opcode = bytes[index] % 12
            index += 1
            if opcode == 10 {
                if !batch.isEmpty { batches.append(batch) }
                batch = []
                continue
            }
            if opcode == 11 { continue }
            guard let number = byte() else { break }
            let device = Int(number)
            let time = Double(count + 1) / 100
            let event: LibinputEvent
            switch opcode {
            case 0:
                guard let kind = byte(), let output = byte() else { break reading }
                event = .added(
                    device: device, name: "device \(device)", path: "/dev/input/event\(device)",
                    kind: kinds[Int(kind) % kinds.count],
                    outputName: output == 0 ? nil : output == 1 ? "Virtual-1" : "HDMI-A-1")
            case 1: event = .removed(device: device)
            case 2:
                guard let dx = float(), let dy = float() else { break reading }
                event = .motion(device: device, dx: dx, dy: dy, time: time)
            case 3:
                guard let x = float(), let y = float() else { break reading }
                event = .absolute(device: device, x: x, y: y, time: time)
            case 4:
                guard let code = word(), let pressed = byte() else { break reading }
                event = .button(device: device, code: code, pressed: pressed & 1 == 1, time: time)
            case 5:
                guard let slot = slot(), let x = float(), let y = float() else { break reading }
                event = .touchDown(device: device, slot: slot, x: x, y: y, time: time)
            case 6:
                guard let slot = slot(), let x = float(), let y = float() else { break reading }
                event = .touchMotion(device: device, slot: slot, x: x, y: y, time: time)
            case 7:
                guard let slot = slot() else { break reading }
                event = .touchUp(device: device, slot: slot, time: time)
            case 8:
                guard let slot = slot() else { break reading }
                event = .touchCancel(device: device, slot: slot, time: time)
            default: event = .frame(device: device)
            }
            batch.append(event)
            count += 1
        }
        if !batch.isEmpty { batches.append(batch) }
        return batches
    }

    /// When it happened, in seconds of the monotonic clock; `nil` for a device added or removed and a frame.
    public var time: Double? {
        switch self {
        case .motion(_, _, _, let time), .absolute(_, _, _, let time), .button(_, _, _, let time),
            .touchDown(_, _, _, _, let time), .touchMotion(_, _, _, _, let time), .touchUp(_, _, let time),
            .touchCancel(_, _, let time):
            return time
        case .added, .removed, .frame: return nil
        }
    }
}
