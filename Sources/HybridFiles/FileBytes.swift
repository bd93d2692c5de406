#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads without Foundation's `Data` round trip (documents are read on the
/// first-frame path).
public enum FileBytes {
    /// The whole file, or `nil` when it cannot be read (missing, a folder, no permission).
    public static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
            if count < chunk.count { return ferror(file) == 0 ? bytes : nil }
        }
    }
}
