#if canImport(Glibc)
import Glibc
#endif

/// Writing to the standard streams directly (unbuffered), so stdout and stderr interleave in
/// the order things happened.
public enum FileHandleOutput {
    /// Writes a line (a newline added when missing) to standard error.
    public static func standardError(_ line: String) {
        writeRaw(line.hasSuffix("\n") ? line : line + "\n")
    }

    /// Writes text to standard error as it is (a progress bar's carriage returns).
    public static func writeRaw(_ text: String) {
        writeAll(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Writes bytes to standard output.
    public static func standardOutput(_ bytes: [UInt8]) {
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
    public static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether standard error is a terminal (where progress bars may be drawn).
    public static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
