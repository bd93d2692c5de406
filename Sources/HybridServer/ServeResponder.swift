import Foundation
import Hummingbird
import HybridBundles
import HybridFiles
import HybridJSON
import Logging

/// Answers `hybrid serve`'s requests (the URL layout is in `BundleServer`), logging each one at
/// info as `METHOD PATH STATUS`. Every error is plain text saying what was asked and why it
/// cannot be answered.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ServeResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let directory: BundleDirectory
    let watch: FolderWatch
    let changesTimeout: Duration
    /// A private folder to build signed folders' archives in.
    let scratch: String
    /// `HOST:PORT` for messages when a request has no `Host` header.
    let address: Locked<String>
    let logger: Logger

    func respond(to request: Request, context: Context) async throws -> Response {
        let reply = await reply(to: request)
        logger.info("\(request.method) \(request.uri) \(reply.status.code)")
        var headers = HTTPFields()
        headers[.contentType] = reply.contentType
        headers[.cacheControl] = "no-store"
        let response = Response(status: reply.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body)))
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// What to answer, before it becomes a response.
    struct Reply {
        var status: HTTPResponse.Status
        var contentType: String
        var body: [UInt8]

        static func text(_ status: HTTPResponse.Status, _ message: String) -> Reply {
            Reply(status: status, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8))
        }

        static func json(_ value: JSONValue) -> Reply {
            Reply(status: .ok, contentType: "application/json", body: Array((value.jsonText + "\n").utf8))
        }

        /// A file's bytes, typed by its name: `.json`, `.js`, `.hbundle`, else octet-stream.
        static func file(_ bytes: [UInt8], named name: String) -> Reply {
            let contentType = switch FileSystem.fileExtension(of: name) {
            case "json": "application/json"
            case "js": "text/javascript"
            case "hbundle": "application/zip"
            default: "application/octet-stream"
            }
            return Reply(status: .ok, contentType: contentType, body: bytes)
        }
    }

    func reply(to request: Request) async -> Reply {
        guard request.method == .get || request.method == .head else {
            return .text(.methodNotAllowed, "\(request.method) \(request.uri.path): hybrid serve answers GET (and HEAD) only")
        }
        let raw = request.uri.path
        guard let path = raw.removingPercentEncoding, path.hasPrefix("/") else {
            return .text(.badRequest, "\(raw): not a valid path (bad percent-encoding?)")
        }
        if path == "/" { return index() }
        if path.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            return .text(.badRequest, "\(path): leaves the served folder; \"..\" segments are not allowed")
        }
        let rest = path.dropFirst()
        guard let slash = rest.firstIndex(of: "/") else {
            if rest.hasSuffix(BundleDirectory.archiveSuffix) {
                return archive(String(rest.dropLast(BundleDirectory.archiveSuffix.count)), request: request)
            }
            return .text(.notFound, "\(path): not found; bundles are at /NAME.hbundle and /NAME/ (GET / lists them)")
        }
        let name = String(rest[..<slash])
        let file = String(rest[rest.index(after: slash)...])
        switch file {
        case BundleFolder.manifestName, BundleFolder.signatureName: return manifestFile(name, file)
        case ".files": return files(name)
        case ".changes": return await changes(name, query: request.uri.queryParameters["since"].map(String.init))
        default: return folderFile(name, file)
        }
    }

    // MARK: The endpoints

    /// `GET /`: every bundle with its app, version, whether it is signed and its archive's path.
    private func index() -> Reply {
        let (bundles, problems) = directory.bundles()
        for problem in problems { logger.debug("left out of the index: \(problem)") }
        return .json(.object(JSONObject([("bundles", .array(bundles.map { bundle in
            .object(JSONObject([
                ("name", .string(bundle.name)), ("app", .string(bundle.app)), ("version", .string(bundle.version)),
                ("signed", .bool(bundle.isSigned)), ("archive", bundle.archivePath.map(JSONValue.string) ?? .null),
            ]))
        }))])))
    }

    /// `GET /NAME.hbundle`: the file as is, or a signed folder zipped as `hybrid bundle pack` does.
    private func archive(_ name: String, request: Request) -> Reply {
        if let file = directory.archive(name) {
            guard let bytes = FileBytes.read(file) else { return .text(.internalServerError, "\(name).hbundle: cannot read the file") }
            return .file(bytes, named: file)
        }
        guard let folder = directory.folder(name) else { return noBundle(name) }
        guard BundleDirectory.isFile(folder + "/" + BundleFolder.signatureName) else {
            let host = request.head.authority ?? address.withLock { $0 }
            return .text(.notFound, """
                \(name): an unsigned bundle folder (no manifest.sig) has no archive; \
                run it in development mode at http://\(host)/\(ServedBundle.encoded(name))/ \
                or sign it with `hybrid bundle pack`
                """)
        }
        // Built again only when the folder changed; a change while building builds it again.
        var generation = watch.refresh(name, at: folder).generation
        for _ in 0..<3 {
            if let cached = watch.cachedArchive(name, generation: generation) { return .file(cached, named: "\(name).hbundle") }
            let temporary = scratch + "/" + UUID().uuidString + BundleDirectory.archiveSuffix
            defer { unlink(temporary) }
            do {
                try BundleSigner.writeArchive(ofSignedFolder: folder, to: temporary)
            } catch {
                return .text(.internalServerError, "\(name).hbundle: cannot archive the folder \(name)/: \(error)")
            }
            guard let bytes = FileBytes.read(temporary) else {
                return .text(.internalServerError, "\(name).hbundle: cannot read the archive just written")
            }
            let now = watch.refresh(name, at: folder).generation
            if now == generation {
                watch.storeArchive(name, generation: generation, bytes: bytes)
                return .file(bytes, named: "\(name).hbundle")
            }
            generation = now
        }
        return .text(.serviceUnavailable, "\(name).hbundle: the folder \(name)/ keeps changing while it is archived; try again")
    }

    /// `GET /NAME/manifest.json` and `/NAME/manifest.sig`: from the `.hbundle` when there is one.
    private func manifestFile(_ name: String, _ file: String) -> Reply {
        guard let archive = directory.archive(name) else { return folderFile(name, file) }
        do throws(ServeError) {
            let limit = file == BundleFolder.manifestName ? BundleVerifier.manifestSizeLimit : BundleVerifier.signatureSizeLimit
            guard let bytes = try ArchiveEntries.read(file, in: archive, limit: limit) else {
                return .text(.notFound, "\(name).hbundle: has no \(file)")
            }
            return .file(bytes, named: file)
        } catch {
            return .text(.internalServerError, error.description)
        }
    }

    /// `GET /NAME/.files`: every file of the folder with its size and SHA-256, and the
    /// generation the listing belongs to.
    private func files(_ name: String) -> Reply {
        guard let folder = directory.folder(name) else { return folderOnly(name, ".files") }
        let (generation, listing) = watch.refresh(name, at: folder)
        var files: [(String, JSONValue)] = []
        for entry in listing {
            var digest = watch.cachedDigest(name, path: entry.path, stamp: entry.stamp).map { (entry.stamp.size, $0) }
            if digest == nil, let bytes = FolderListing.contents(of: folder + "/" + entry.path) {
                let sha256 = FolderListing.sha256(bytes)
                if bytes.count == entry.stamp.size { watch.storeDigest(name, path: entry.path, stamp: entry.stamp, sha256: sha256) }
                digest = (bytes.count, sha256)
            }
            // A file gone since the listing was taken is left out; the next generation says so.
            guard let (size, sha256) = digest else { continue }
            files.append((entry.path, .object(JSONObject([("size", .integer(size)), ("sha256", .string(sha256))]))))
        }
        return .json(.object(JSONObject([("generation", .integer(generation)), ("files", .object(JSONObject(files)))])))
    }

    /// `GET /NAME/.changes?since=G`: answers as soon as the folder's generation is past `G`, or
    /// after the timeout with the generation as it is.
    private func changes(_ name: String, query since: String?) async -> Reply {
        guard let folder = directory.folder(name) else { return folderOnly(name, ".changes") }
        guard let since = since.map({ Int($0) }) ?? 0 else {
            return .text(.badRequest, "\(name)/.changes: ?since= takes a generation (an integer from .files or an earlier .changes), got \"\(since ?? "")\"")
        }
        watch.refresh(name, at: folder)
        let generation = await watch.wait(for: name, since: since, timeout: changesTimeout)
        return .json(.object(JSONObject([("generation", .integer(generation))])))
    }

    /// `GET /NAME/PATH`: a file of the folder (development mode), never through a link and never
    /// outside the folder.
    private func folderFile(_ name: String, _ path: String) -> Reply {
        guard let folder = directory.folder(name) else {
            if directory.archive(name) != nil {
                return .text(.notFound, "\(name)/\(path): \(name) is served as an archive (/\(name).hbundle); its files are not served one by one")
            }
            return noBundle(name)
        }
        if path.isEmpty {
            return .text(.notFound, "\(name)/: name a file, /\(name)/PATH; /\(name)/.files lists them")
        }
        if let problem = BundlePath.problem(with: path) {
            return .text(.badRequest, "\(name)/\(path): \(problem)")
        }
        if let problem = FolderListing.problem(serving: path, in: folder) {
            return .text(.notFound, "\(name)/\(path): \(problem)")
        }
        guard let bytes = FolderListing.contents(of: folder + "/" + path) else {
            return .text(.notFound, "\(name)/\(path): cannot read the file")
        }
        return .file(bytes, named: path)
    }

    private func noBundle(_ name: String) -> Reply {
        .text(.notFound, "\(name): no such bundle (neither \(name).hbundle nor a folder \(name)/ with manifest.json); GET / lists them")
    }

    private func folderOnly(_ name: String, _ endpoint: String) -> Reply {
        if directory.archive(name) != nil {
            return .text(.notFound, "\(name)/\(endpoint): \(name) is an archive; \(endpoint) watches bundle folders only")
        }
        return noBundle(name)
    }
}
