import Foundation
import XCTest

/// A new, empty folder under the system's temporary folder, removed with everything in it when
/// it is no longer wanted: at the end of the test that made it (`makeTemporaryDirectory`), or
/// when the object holding it goes away.
///
/// The one way tests get a scratch folder, so none forgets to remove one or shares one with a
/// test running at the same time.
public final class TemporaryDirectory: Sendable {
    /// The folder.
    public let url: URL

    /// Creates a folder named `LABEL-UUID`.
    public init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        remove()
    }

    /// The folder's path.
    public var path: String { url.path }

    /// Removes the folder and everything in it (again: nothing happens).
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

extension XCTestCase {
    /// A new, empty folder named `LABEL-UUID`, removed with everything in it when the current
    /// test ends, whether it passed or not. Call it from `setUp` or from the test itself.
    public func makeTemporaryDirectory(_ label: String) throws -> URL {
        let directory = try TemporaryDirectory(label)
        addTeardownBlock { directory.remove() }
        return directory.url
    }
}
