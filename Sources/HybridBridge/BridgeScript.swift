/// The bridge's own JavaScript, the files of `JavaScript/` embedded in the library at build
/// time by the EmbedJavaScript plugin (so a host program carries them inside its binary).
///
/// `patches.js` builds the hot-fix table, loaded when first used (`patch-globals.js`),
/// `prelude.js` the SPEC §3 globals on top of it,
/// `url-hosts.js`, `url-parser.js` and `url.js` (URL, in three parts), `web.js` and `fetch.js` the
/// web platform's everyday globals (SPEC §3), loaded when one is first used (`web-globals.js`),
/// `api.js` the SPEC §7.2 `api` global and `db.js` the SPEC §7.3 `db` global, each loaded when
/// first needed (`data-globals.js`), and a host app installs `ui.js` for its `ui`, `state` and
/// `store` globals. Each is a function expression called with the natives declared in
/// `Natives.swift`.
enum BridgeScript: String, CaseIterable {
    case patchGlobals = "patch-globals", patches, prelude, webGlobals = "web-globals", urlHosts = "url-hosts", urlParser = "url-parser", url, web, fetch
    case dataGlobals = "data-globals", api, db, ui

    /// The name errors and stacks give the script. Frames of every bridge script (all under
    /// `hybrid:prelude`) are dropped from what scripts are told (`ScriptLocator`), so an error a
    /// `ui.*` call throws is located at the script line that called it.
    var sourceURL: String {
        switch self {
        case .prelude: return "hybrid:prelude"
        case .patchGlobals: return "hybrid:prelude/patch-globals"
        case .patches: return "hybrid:prelude/patches"
        case .webGlobals: return "hybrid:prelude/web-globals"
        case .urlHosts: return "hybrid:prelude/url-hosts"
        case .urlParser: return "hybrid:prelude/url-parser"
        case .url: return "hybrid:prelude/url"
        case .web: return "hybrid:prelude/web"
        case .fetch: return "hybrid:prelude/fetch"
        case .dataGlobals: return "hybrid:prelude/data-globals"
        case .api: return "hybrid:prelude/api"
        case .db: return "hybrid:prelude/db"
        case .ui: return "hybrid:prelude/ui"
        }
    }

    /// The script's text.
    var source: String {
        guard let text = EmbeddedJavaScript.files[rawValue] else {
            preconditionFailure("JavaScript/\(rawValue).js was not embedded")
        }
        return text
    }
}
