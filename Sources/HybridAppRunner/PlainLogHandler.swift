import Logging

/// Log lines of a running app in the form of its other output: the message, after `warning: `
/// or `error: ` when it is one — no timestamps, labels or module names, which made a script's
/// `console.log` lines read unlike the problems printed beside them.
struct PlainLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let prefix = switch event.level {
        case .warning: "warning: "
        case .error, .critical: "error: "
        default: ""
        }
        FileHandleOutput.standardError(prefix + event.message.description)
    }

    /// Makes every logger of the process write plain lines (the first call wins: swift-log
    /// takes one bootstrap per process).
    static func bootstrap() {
        LoggingSystem.bootstrap { _ in PlainLogHandler() }
    }
}
