import Foundation
import ZIPFoundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a `.hbundle` ZIP archive with every read bounded: the central directory is checked
/// against the archive's size before it is trusted, and an entry is read only up to the limit
/// its caller gives (for a bundle file, the size the signed manifest lists), from exactly the
/// compressed bytes the directory assigns it.
///
/// ZIPFoundation's own reader is not used for reading: on a damaged deflate stream it asks for
/// input past the entry's data for ever (`bundle verify` never returned), and it tells zlib
/// that a short last chunk is a whole buffer. Inflating still goes through its public
/// `Data.decompress`, fed here with full, zero-padded buffers and never more than the entry's
/// compressed bytes.
public struct ArchiveReader {
    /// One entry of the central directory.
    struct Entry {
        enum Kind { case file, folder, link }
        var name: String
        var kind: Kind
        var method: UInt16
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
    }

    /// Where the archive's bytes are: a file read by offset, or bytes in memory.
    enum Source {
        case file(descriptor: Int32)
        case memory([UInt8])
    }

    /// The largest central directory read (65,535 entries with long names fit in far less).
    static let directorySizeLimit = 16 << 20
    /// The size of each read and of each inflated chunk.
    static let chunkSize = 64 << 10

    private let source: Source
    /// The archive's size in bytes.
    let size: Int
    /// The entries, in directory order.
    private(set) var entries: [Entry] = []
    /// Where the central directory starts: every entry's data lies before it.
    private var directoryOffset = 0

    /// Opens the archive at `path` and reads its directory.
    static func open(path: String) throws(BundleError) -> ArchiveReader {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else {
            if descriptor >= 0 { Glibc.close(descriptor) }
            throw BundleError(.unreadable, file: path, "cannot open the archive (\(String(cString: strerror(errno))))")
        }
        return try ArchiveReader(source: .file(descriptor: descriptor), size: Int(info.st_size), name: path)
    }

    /// Reads the directory of an archive held in memory (what a fuzz target hands over).
    init(bytes: [UInt8], name: String) throws(BundleError) {
        try self.init(source: .memory(bytes), size: bytes.count, name: name)
    }

    private init(source: Source, size: Int, name: String) throws(BundleError) {
        self.source = source
        self.size = size
        do throws(BundleError) {
            try readDirectory()
        } catch {
            close()
            throw BundleError(.damagedArchive, file: name, "not a readable ZIP archive (truncated or damaged)" + (error.message.isEmpty ? "" : ": " + error.message))
        }
    }

    /// The bytes of the file entry `name` in the archive at `path`, refusing more than `limit`;
    /// `nil` when there is no such entry. What `hybrid serve` reads out of archives it serves.
    public static func file(named name: String, inArchive path: String, limit: Int) throws(BundleError) -> [UInt8]? {
        let archive = try open(path: path)
        defer { archive.close() }
        guard let entry = archive.entries.first(where: { $0.name == name && $0.kind == .file }) else { return nil }
        return try archive.contents(of: entry, name: name, limit: limit, tooLarge: BundleError(.tooLarge, file: name, "larger than \(limit) bytes"))
    }

    /// The whole of a small file entry, called `name` in messages; more than `limit` bytes is
    /// refused with `tooLarge`, a damaged entry with a `damagedArchive` error.
    func contents(of entry: Entry, name: String, limit: Int, tooLarge: BundleError) throws(BundleError) -> [UInt8] {
        var bytes: [UInt8] = []
        do throws(ReadFailure) {
            try read(entry, limit: limit) { bytes += $0 }
        } catch {
            switch error {
            case .tooLarge: throw tooLarge
            case .damaged(let reason): throw BundleError(.damagedArchive, file: name, "cannot be read from the archive: \(reason)")
            case .consumer: throw BundleError(.damagedArchive, file: name, "cannot be read from the archive")
            }
        }
        return bytes
    }

    /// Whether the archive at `path` has a file entry `name`.
    public static func contains(_ name: String, inArchive path: String) throws(BundleError) -> Bool {
        let archive = try open(path: path)
        defer { archive.close() }
        return archive.entries.contains { $0.name == name && $0.kind == .file }
    }

    /// Closes the archive file (nothing to do for bytes in memory).
    func close() {
        if case .file(let descriptor) = source { Glibc.close(descriptor) }
    }

    // MARK: Directory

    private static let endSignature: UInt32 = 0x0605_4b50
    private static let entrySignature: UInt32 = 0x0201_4b50
    private static let localSignature: UInt32 = 0x0403_4b50

    private mutating func readDirectory() throws(BundleError) {
        // The end record is 22 bytes plus a comment of at most 65,535.
        let tailCount = min(size, 22 + 0xFFFF)
        guard size >= 22, let tail = read(at: size - tailCount, count: tailCount) else { throw Self.damaged("") }
        guard let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: { Self.uint32(tail, $0) == Self.endSignature }) else {
            throw Self.damaged("")
        }
        let count = Int(Self.uint16(tail, end + 10))
        let directorySize = Int(Self.uint32(tail, end + 12))
        directoryOffset = Int(Self.uint32(tail, end + 16))
        let endOffset = size - tailCount + end
        guard directorySize <= Self.directorySizeLimit else { throw Self.damaged("its directory is larger than \(Self.directorySizeLimit) bytes") }
        guard directoryOffset + directorySize <= endOffset, let directory = read(at: directoryOffset, count: directorySize) else {
            throw Self.damaged("")
        }
        var offset = 0
        for _ in 0..<count {
            guard offset + 46 <= directory.count, Self.uint32(directory, offset) == Self.entrySignature else { throw Self.damaged("") }
            let nameCount = Int(Self.uint16(directory, offset + 28))
            let next = offset + 46 + nameCount + Int(Self.uint16(directory, offset + 30)) + Int(Self.uint16(directory, offset + 32))
            guard next <= directory.count, let name = String(bytes: directory[offset + 46 ..< offset + 46 + nameCount], encoding: .utf8) else {
                throw Self.damaged("")
            }
            let flags = Self.uint16(directory, offset + 8)
            let sizes = [Self.uint32(directory, offset + 20), Self.uint32(directory, offset + 24), Self.uint32(directory, offset + 42)]
            guard !sizes.contains(0xFFFF_FFFF) else { throw Self.damaged("\(name) uses ZIP64, which a bundle never needs") }
            guard flags & 1 == 0 else { throw Self.damaged("\(name) is encrypted") }
            let madeOnUnix = Self.uint16(directory, offset + 4) >> 8 == 3
            let mode = mode_t(Self.uint32(directory, offset + 38) >> 16) & S_IFMT
            let kind: Entry.Kind = madeOnUnix && mode == S_IFLNK ? .link : (madeOnUnix && mode == S_IFDIR) || name.hasSuffix("/") ? .folder : .file
            entries.append(Entry(name: name, kind: kind, method: Self.uint16(directory, offset + 10), compressedSize: Int(sizes[0]),
                                 uncompressedSize: Int(sizes[1]), localHeaderOffset: Int(sizes[2])))
            offset = next
        }
    }

    private static func damaged(_ reason: String) -> BundleError { BundleError(.damagedArchive, reason) }

    // MARK: Entries

    /// Why an entry's bytes could not be read.
    enum ReadFailure: Error {
        /// The entry holds more than the limit (its stated size, or what inflating produced).
        case tooLarge(stated: Int)
        /// The entry's data is damaged, truncated or in an unsupported form; says why.
        case damaged(String)
        /// The consumer threw.
        case consumer(Error)
    }

    /// Hands `consumer` the entry's bytes chunk by chunk, never more than `limit` in all, reading
    /// no more than the entry's compressed bytes.
    func read(_ entry: Entry, limit: Int, consumer: ([UInt8]) throws -> Void) throws(ReadFailure) {
        guard entry.uncompressedSize <= limit else { throw .tooLarge(stated: entry.uncompressedSize) }
        guard let header = read(at: entry.localHeaderOffset, count: 30), Self.uint32(header, 0) == Self.localSignature else {
            throw .damaged("its local header is missing or damaged")
        }
        let dataOffset = entry.localHeaderOffset + 30 + Int(Self.uint16(header, 26)) + Int(Self.uint16(header, 28))
        guard dataOffset + entry.compressedSize <= directoryOffset else { throw .damaged("its data runs past the archive's entries") }
        guard entry.compressedSize <= Self.compressedBound(of: limit) else {
            throw .damaged("its compressed data (\(entry.compressedSize) bytes) is more than \(limit) bytes can take")
        }
        var produced = 0
        func deliver(_ chunk: [UInt8]) throws(ReadFailure) {
            produced += chunk.count
            guard produced <= limit else { throw .tooLarge(stated: entry.uncompressedSize) }
            do { try consumer(chunk) } catch { throw .consumer(error) }
        }
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.uncompressedSize else { throw .damaged("a stored entry whose sizes differ") }
            var offset = 0
            while offset < entry.compressedSize {
                let count = min(Self.chunkSize, entry.compressedSize - offset)
                guard let chunk = read(at: dataOffset + offset, count: count) else { throw .damaged("its data is truncated") }
                try deliver(chunk)
                offset += count
            }
        case 8:
            try inflate(from: dataOffset, count: entry.compressedSize, deliver: deliver)
        default:
            throw .damaged("compression method \(entry.method) is not supported (stored or deflate only)")
        }
        guard produced == entry.uncompressedSize else {
            throw .damaged("it holds \(produced) bytes where the archive says \(entry.uncompressedSize)")
        }
    }

    /// The most bytes deflate can take for `size` bytes of data (zlib's `deflateBound`: stored
    /// blocks and their headers), with room for a compressor's end block.
    /// Saturating: a listed size near `Int.max` (a signed but absurd manifest) cannot trap.
    static func compressedBound(of size: Int) -> Int {
        [size >> 12, size >> 14, size >> 25, 64].reduce(max(size, 0)) { total, part in
            let (sum, overflow) = total.addingReportingOverflow(max(part, 0))
            return overflow ? .max : sum
        }
    }

    private struct InputExhausted: Error {}

    /// Inflates the `count` compressed bytes at `offset`. The provider hands over full buffers
    /// (zero-padded at the end: `Data.decompress` tells zlib a chunk is a whole buffer) and
    /// throws once the entry's bytes are used up without the stream's end.
    private func inflate(from offset: Int, count: Int, deliver: ([UInt8]) throws(ReadFailure) -> Void) throws(ReadFailure) {
        var position = 0
        var failure: ReadFailure?
        do {
            _ = try Data.decompress(size: Int64(count), bufferSize: Self.chunkSize, skipCRC32: true, provider: { _, _ in
                guard position < count else { throw InputExhausted() }
                let length = min(Self.chunkSize, count - position)
                guard var chunk = read(at: offset + position, count: length) else { throw InputExhausted() }
                position += length
                chunk += [UInt8](repeating: 0, count: Self.chunkSize - length)
                return Data(chunk)
            }, consumer: { data in
                do throws(ReadFailure) {
                    try deliver(Array(data))
                } catch {
                    failure = error
                    throw error
                }
            })
        } catch {
            if let failure { throw failure }
            throw .damaged("its compressed data is damaged or truncated")
        }
    }

    // MARK: Bytes

    /// `count` bytes at `offset`, or `nil` when the archive does not hold them all.
    private func read(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        switch source {
        case .memory(let bytes):
            return Array(bytes[offset ..< offset + count])
        case .file(let descriptor):
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return nil }
                done += got
            }
            return bytes
        }
    }

    private static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(uint16(bytes, at)) | UInt32(uint16(bytes, at + 2)) << 16
    }
}
