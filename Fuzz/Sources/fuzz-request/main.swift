import FuzzSupport
import Inspection

// What an app reads from a peer on its inspection socket: any bytes, in any split, come to the
// same verdict (a request, a failure, or a wait for more) and never trap; a request is only ever
// one whole line with nothing after it.
fuzz { data, count in
    let input = bytes(data, count)
    let split = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
    let whole = verdict([input[...]])
    let parts = verdict([input.prefix(split), input.dropFirst(split)])
    guard kind(whole) == kind(parts) else { fatalError("one split reads \(whole), another \(parts)") }
    if case .request = whole, input.last != UInt8(ascii: "\n") {
        fatalError("a request from bytes that do not end with the request's line")
    }
    return 0
}

/// What a reader makes of the chunks, as the server acts on them: the first failure closes the
/// connection; otherwise the request, if one came.
func verdict(_ chunks: [ArraySlice<UInt8>]) -> InspectionRequestReader.Outcome {
    var reader = InspectionRequestReader()
    var result = InspectionRequestReader.Outcome.needsMore
    for chunk in chunks {
        let outcome = reader.consume(chunk)
        if case .failure = outcome { return outcome }
        if case .request = outcome { result = outcome }
    }
    return result
}

/// The verdict without a failure's message (which may name another limit in another split).
func kind(_ outcome: InspectionRequestReader.Outcome) -> String {
    switch outcome {
    case .needsMore: return "needs more"
    case .request(let request): return "request \(request)"
    case .failure: return "failure"
    }
}
