// HybridBundles: what a bundle is on disk (SPEC §5).
//
// - `BundleManifest` decodes `manifest.json`, reporting every problem as a located `Diagnostic`
//   like a screen document does.
// - `SemanticVersion` and `VersionRequirement` order versions and check `runtime`.
// - `BundlePath` holds the rules every path in a bundle follows (relative, no `..`).
// - `BundleFolder` opens a development bundle: a folder whose manifest names files inside it.
//
// Signatures (`manifest.sig`), `.hbundle` archives, downloads and the install cache build on
// these types later; nothing here loads screens or runs scripts (the runtime does).
