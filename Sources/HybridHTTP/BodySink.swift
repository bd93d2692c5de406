/// Where a streamed body goes, chunk by chunk, from one task at a time.
public protocol BodySink: AnyObject, Sendable {
    /// The next bytes of the body; throwing ends the request (and closes its connection).
    func receive(_ bytes: [UInt8]) throws
}
