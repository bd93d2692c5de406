// HybridBundles: what a bundle is on disk (SPEC §5).
//
// - `BundleManifest` decodes `manifest.json`, reporting every problem as a located `Diagnostic`
//   like a screen document does.
// - `SemanticVersion` and `VersionRequirement` order versions and check `runtime`.
// - `BundlePath` holds the rules every path in a bundle follows (relative, no `..`).
// - `BundleFolder` opens a development bundle: a folder whose manifest names files inside it.
// - `BundleKey` / `BundlePublicKey` are Ed25519 keys (swift-crypto) and their one-line key files;
//   `BundleSignature` is `manifest.sig`.
// - `BundleSigner` packs: lists every file's SHA-256 and size in `files`, signs manifest.json,
//   and writes `.hbundle` ZIP archives (ZIPFoundation).
// - `BundleVerifier` checks a signed folder or archive against trusted keys, naming the first
//   file that fails (`BundleError`); an archive is unpacked into a staging folder as it is
//   checked, returned as a `VerifiedBundle` for the runtime to install by renaming.
//
// Downloads and the install cache build on these types later; nothing here loads screens or
// runs scripts (the runtime does).
