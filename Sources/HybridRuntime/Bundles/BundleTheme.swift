import HybridBundles
import HybridDocument
import HybridFiles
import HybridJSON
import HybridWidgets

/// A bundle's theme (SPEC §2, §5): the manifest's `theme` file of named styles, which every
/// screen of the bundle starts from.
public enum BundleTheme {
    /// The theme `folder`'s manifest names, read and checked; `nil` when it names none.
    public static func load(_ folder: BundleFolder) -> Loaded<NamedStyles>? {
        guard let relative = folder.manifest.theme else { return nil }
        guard let path = folder.filePath(for: relative) else {
            return Loaded(value: nil, diagnostics: [Diagnostic(offset: 0, path: "$", message: "the theme \"\(relative)\" is not a usable path")],
                          source: SourceText(name: folder.path, bytes: []))
        }
        return Theme.load(contentsOf: path)
    }

    /// The theme of the bundle a screen file opened alone belongs to (`hybrid render`,
    /// `validate` or `run` of one screen): the first folder at or up to two above the file
    /// (`screens/` inside a bundle) holding a manifest that opens, if it names a theme.
    public static func enclosing(screenFile path: String) -> Loaded<NamedStyles>? {
        var folder = FileSystem.parentFolder(of: path)
        for _ in 0..<3 {
            if FileSystem.exists(FileSystem.join(folder, BundleFolder.manifestName)) {
                return BundleFolder.open(folder).value.flatMap(load)
            }
            let parent = FileSystem.parentFolder(of: folder)
            guard parent != folder else { return nil }
            folder = parent
        }
        return nil
    }
}
