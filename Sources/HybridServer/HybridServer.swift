// HybridServer: `hybrid serve DIR` (SPEC §6), bundles over HTTP while they are written.
//
// - `BundleServer` serves every bundle of a folder on Hummingbird: the index (`GET /`), archives
//   (`/NAME.hbundle`: the file as is, or a signed folder zipped the way `hybrid bundle pack`
//   zips it), manifests, and for bundle folders the development endpoints: `.files` (every
//   file's size and SHA-256), `.changes` (a long poll on the folder's change generation) and
//   the files themselves, confined to the folder.
// - `BundleDirectory` finds the bundles; `FolderWatch` keeps each folder's generation, bumped
//   when a poll of its listing (path, size, modification time) differs; `ServeResponder` maps
//   requests to answers and logs each one.
//
// Only the `hybrid` program links this module: a host app embedding HybridTerm never pulls in
// SwiftNIO.
