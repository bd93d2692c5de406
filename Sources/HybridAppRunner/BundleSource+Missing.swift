import HybridTerm

extension BundleSource {
    /// The path of a target on disk that is not there (nil for URLs and for what exists): a
    /// program reports it as such first, before what the target would have needed (a key).
    public var missingPath: String? {
        guard case .archive(let path) = self, !FileSystem.exists(path) else { return nil }
        return path
    }
}
