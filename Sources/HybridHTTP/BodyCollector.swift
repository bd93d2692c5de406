/// The sink `HTTPTransport.send(_:)` reads a whole body into. Written by the request's task
/// only, and read after that task has ended.
final class BodyCollector: BodySink, @unchecked Sendable {
    private(set) var bytes: [UInt8] = []

    func receive(_ bytes: [UInt8]) throws {
        self.bytes += bytes
    }
}
