/// A growable byte buffer written through a pointer: the JSON and plain writers append to it
/// without `Array`'s per-append uniqueness and capacity checks, which dominated `--replay --json`.
public struct ByteWriter: ~Copyable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// How many bytes are written.
    public private(set) var count = 0

    /// Creates a buffer.
    ///
    /// - Parameter capacity: The starting capacity in bytes.
    public init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends bytes as they are (a line already written: a JSON line passed through).
    ///
    /// - Parameter bytes: The bytes.
    public mutating func append(bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends a static string's bytes.
    public mutating func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length)
        (base + count).update(from: text.utf8Start, count: length)
        count += length
    }

    /// Appends a string's UTF-8 bytes.
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            reserve(bytes.count)
            if let source = bytes.baseAddress { (base + count).update(from: source, count: bytes.count) }
            count += bytes.count
        }
    }

    /// Appends a string as a JSON string literal, escaping what JSON requires, and C1 control
    /// characters (U+0080–U+009F) as well: JSON allows them raw, but a terminal showing the
    /// output may take them as 8-bit CSI or OSC.
    public mutating func appendJSONString(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            // Worst case: every byte becomes \u00XX.
            reserve(bytes.count * 6 + 2)
            var out = base + count
            out.pointee = 34
            out += 1
            var index = 0
            while index < bytes.count {
                var byte = bytes[index]
                index += 1
                // U+0080–U+009F is C2 80 … C2 9F in UTF-8: written \u0080 … \u009f.
                if byte == 0xc2, index < bytes.count, bytes[index] & 0xe0 == 0x80 {
                    byte = bytes[index]
                    index += 1
                    Self.writeUnicodeEscape(byte, at: out)
                    out += 6
                    continue
                }
                switch byte {
                case 34, 92:
                    out[0] = 92
                    out[1] = byte
                    out += 2
                case 10:
                    out[0] = 92
                    out[1] = UInt8(ascii: "n")
                    out += 2
                case 13:
                    out[0] = 92
                    out[1] = UInt8(ascii: "r")
                    out += 2
                case 9:
                    out[0] = 92
                    out[1] = UInt8(ascii: "t")
                    out += 2
                case 0..<0x20, 0x7f:
                    Self.writeUnicodeEscape(byte, at: out)
                    out += 6
                default:
                    out.pointee = byte
                    out += 1
                }
            }
            out.pointee = 34
            out += 1
            count = out - base
        }
    }

    /// Appends a non-negative or negative integer in decimal.
    public mutating func append(decimal value: Int) {
        reserve(21)
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch
        withUnsafeMutableBytes(of: &digits) { scratch in
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = UInt8(truncatingIfNeeded: magnitude % 10) + 48
                magnitude /= 10
            } while magnitude > 0
            let length = scratch.count - index
            (base + count).update(from: scratch.baseAddress!.assumingMemoryBound(to: UInt8.self) + index, count: length)
            count += length
        }
    }

    /// Appends seconds with six decimals and no exponent: `12.345678`. A time beyond a million
    /// years either way is written in Swift's shortest form (`1e+20`), and one that is not a
    /// number as `null`: whatever an input's timestamps say, writing them never traps.
    public mutating func append(seconds t: Double) {
        guard t.magnitude < 3e13 else {
            append(t.isFinite ? t.description : "null")
            return
        }
        let micro = Int((t * 1_000_000).rounded())
        if micro < 0 { append(UInt8(ascii: "-")) }
        let magnitude = Int(micro.magnitude)
        append(decimal: magnitude / 1_000_000)
        append(UInt8(ascii: "."))
        var fraction = magnitude % 1_000_000
        reserve(6)
        for index in stride(from: 5, through: 0, by: -1) {
            base[count + index] = UInt8(fraction % 10) + 48
            fraction /= 10
        }
        count += 6
    }

    /// The bytes written, for reading.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Forgets what was written, keeping the memory.
    public mutating func removeAll() {
        count = 0
    }

    /// Forgets the first bytes written (those an output took), keeping the rest in order.
    ///
    /// - Parameter length: How many bytes; at most ``count``.
    public mutating func removeFirst(_ length: Int) {
        let length = min(max(length, 0), count)
        guard length > 0 else { return }
        if length < count { base.update(from: base + length, count: count - length) }
        count -= length
    }

    /// Writes `\u00XX` for `byte` (a control character, or the second byte of a C1 one) at `out`:
    /// six bytes, which the caller skips.
    @inline(__always)
    private static func writeUnicodeEscape(_ byte: UInt8, at out: UnsafeMutablePointer<UInt8>) {
        let digits: StaticString = "0123456789abcdef"
        out[0] = 92
        out[1] = UInt8(ascii: "u")
        out[2] = 48
        out[3] = 48
        out[4] = digits.utf8Start[Int(byte >> 4)]
        out[5] = digits.utf8Start[Int(byte & 0xf)]
    }
}
