#if canImport(Glibc)
import Glibc
#endif

/// Writing to the standard streams directly (unbuffered), so stdout and stderr interleave in
/// the order things happened.
enum FileHandleOutput {
    static func standardError(_ line: String) {
        writeAll(Array((line.hasSuffix("\n") ? line : line + "\n").utf8), to: STDERR_FILENO)
    }

    static func standardOutput(_ bytes: [UInt8]) {
        writeAll(bytes, to: STDOUT_FILENO)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Whether standard output is a terminal.
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
