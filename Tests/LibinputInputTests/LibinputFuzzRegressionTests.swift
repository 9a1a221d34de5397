import Foundation
import ResponderChain
import Testing

@testable import LibinputInput

/// fuzz-libinput's corpus and regression inputs (`Fuzz/Corpus/libinput`, `Fuzz/Regressions/libinput`)
/// read again through the decoder, with the fuzzer's checks: here, because FuzzRegressionTests does
/// not link LibinputInput.
@MainActor @Suite struct LibinputFuzzRegressionTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    static func files(_ folder: String) -> [URL] {
        let directory = fuzz.appendingPathComponent("\(folder)/libinput")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test("the regression inputs and the corpus are there")
    func present() {
        #expect(!Self.files("Regressions").isEmpty)
        #expect(Self.files("Corpus").count >= 7)
    }

    @Test("libinput scripts decode without a trap; every contact ends once, and nothing is held after cancelAll")
    func scripts() throws {
        for url in Self.files("Regressions") + Self.files("Corpus") {
            let name = url.lastPathComponent
            let scene = try Scene(json: LibinputDecoderTests.json, file: "libinput.json")
            let (dispatcher, focus) = scene.makeDispatcher()
            focus.updateFocusIfNeeded()
            let decoder = LibinputDecoder(
                sink: dispatcher, makeDeviceID: { [unowned dispatcher] in dispatcher.makeDeviceID() })
            decoder.screen = { (1000, 600) }
            decoder.mapPoint = { Point(x: $0 / 10, y: $1 / 10) }
            decoder.outputName = "Virtual-1"
            decoder.releaseGrace = 0.05
            var down: Set<String> = []
            var problems: [String] = []
            let watch = dispatcher.addTraceObserver { record in
                guard case .pointer(let event, _, _) = record.kind else { return }
                if !event.point.x.isFinite || !event.point.y.isFinite { problems.append("not finite: \(event)") }
                let contact = "\(event.device.rawValue)/\(event.contact)"
                switch event.phase {
                case .down: if !down.insert(contact).inserted { problems.append("\(contact) down twice") }
                case .move: if !down.contains(contact) { problems.append("\(contact) moved while up") }
                case .up, .cancel: if down.remove(contact) == nil { problems.append("\(contact) ended while up") }
                }
            }
            let batches = LibinputEvent.script(try [UInt8](Data(contentsOf: url)))
            #expect(!batches.isEmpty, "\(name)")
            for batch in batches {
                decoder.receive(batch: batch)
                if let time = batch.compactMap(\.time).last { decoder.flush(now: time) }
                #expect(decoder.touchCount <= LibinputDecoder.maximumTouches, "\(name)")
            }
            decoder.cancelAll(time: 1_000)
            #expect(problems.isEmpty, "\(name): \(problems)")
            #expect(down.isEmpty, "\(name): contacts never ended: \(down)")
            #expect(decoder.touchCount == 0 && !decoder.isButtonDown, "\(name)")
            decoder.removeAll()
            #expect(decoder.deviceInfos.isEmpty, "\(name)")
            _ = watch
        }
    }

    @Test("the script reads each opcode's fields, ends a batch at opcode 10 and stops inside a cut event")
    func scriptFormat() {
        // added 1 (touchscreen, Virtual-1) | touch down slot 0 at (1, 2) | no-op | touch up | frame |
        // a button cut short.
        let tap: [UInt8] =
            [0, 1, 0, 1, 10, 5, 1, 0, 0, 0, 0, 0, 0, 0x80, 0x3F, 0, 0, 0, 0x40, 11, 7, 1, 0, 0, 0, 0, 9, 1]
            + [4, 1, 0x10, 0x01]
        let batches = LibinputEvent.script(tap)
        #expect(
            batches == [
                [
                    .added(
                        device: 1, name: "device 1", path: "/dev/input/event1", kind: .touchscreen,
                        outputName: "Virtual-1")
                ],
                [
                    .touchDown(device: 1, slot: 0, x: 1, y: 2, time: 0.02), .touchUp(device: 1, slot: 0, time: 0.03),
                    .frame(device: 1),
                ],
            ])
        #expect(LibinputEvent.script([0, 1, 0, 0], limit: 0).isEmpty)
    }
}
