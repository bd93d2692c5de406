import Foundation
import ZIPFoundation

/// A ZIP archive written entry by entry through ZIPFoundation, so tests can make archives no
/// honest packer would: tampered files, `..` names, symbolic links.
public enum CraftedArchive {
    /// One entry to write.
    public enum Entry {
        case file(String, [UInt8])
        case folder(String)
        case link(String, target: String)
    }

    /// Writes a ZIP at `path` (replacing it) holding exactly `entries`, in order.
    public static func write(at path: String, _ entries: [Entry]) throws {
        try? FileManager.default.removeItem(atPath: path)
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for entry in entries {
            let (name, type, bytes): (String, ZIPFoundation.Entry.EntryType, [UInt8])
            switch entry {
            case .file(let entryName, let content): (name, type, bytes) = (entryName, .file, content)
            case .folder(let entryName): (name, type, bytes) = (entryName, .directory, [])
            case .link(let entryName, let target): (name, type, bytes) = (entryName, .symlink, Array(target.utf8))
            }
            try archive.addEntry(with: name, type: type, uncompressedSize: Int64(bytes.count), compressionMethod: type == .file ? .deflate : .none) { position, size in
                Data(bytes[Int(position)..<Int(position) + size])
            }
        }
    }
}
