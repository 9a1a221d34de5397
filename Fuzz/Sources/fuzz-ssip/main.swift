import FuzzSupport
import SpeechDispatcher

// What speech-dispatcher sends a client, as SpeechDispatcherClient reads it: any bytes, in any split,
// give the same replies and events and the same verdict (an error or none), never trap, and keep the
// parser's state bounded. A message is only ever completed by a CRLF.
fuzz { data, count in
    let input = bytes(data, count)
    let split = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
    var whole = SSIPReplyParser()
    let messages = whole.consume(input)
    var parts = SSIPReplyParser()
    var pieces = parts.consume(input.prefix(split))
    pieces += parts.consume(input.dropFirst(split))
    guard messages == pieces else { fatalError("one split reads \(messages), another \(pieces)") }
    guard (whole.failure == nil) == (parts.failure == nil) else {
        fatalError("one split fails (\(String(describing: whole.failure))), another not")
    }
    if !messages.isEmpty, whole.failure == nil, !whole.isInsideMessage, input.suffix(2) != [0x0D, 0x0A] {
        fatalError("a message from bytes that do not end with a CRLF")
    }
    for message in messages {
        switch message {
        case .reply(let reply):
            guard (100...699).contains(reply.code), reply.data.count < SSIPReplyParser.maximumBlockLines else {
                fatalError("reply out of bounds: \(reply)")
            }
        case .event(let event):
            guard event.messageID >= 0, event.clientID >= 0 else { fatalError("event ids out of bounds: \(event)") }
        }
    }
    return 0
}
