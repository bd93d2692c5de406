import ArgumentParser
import Foundation
import HybridAppRunner
import HybridTerm

/// `shop-demo`: an example host program (SPEC §1, §4). Its native code registers the
/// `cart.*` services and a patchable `Cart.total`, and shows the cart on a JSON screen of its
/// own; `--bundle` brings a signed bundle (say, the `samples/shop-hotfix` patch) that replaces
/// the screen and fixes `Cart.total` without a new binary.
@main
struct ShopDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shop-demo",
        abstract: "A terminal tea shop whose native cart can be hot-fixed by a signed bundle.",
        discussion: """
        Enter adds the selected tea to the cart, x empties it, q quits. Cart.total ships with a \
        bug (it ignores quantities); run with --bundle http://…/shop-hotfix.hbundle --pubkey \
        KEY.pub to download the fix.
        """
    )

    @Option(help: "A signed bundle for the app \"shop\": a .hbundle archive, a bundle folder, or an http(s) URL of an archive.")
    var bundle: String?

    @OptionGroup var options: RunOptions

    func validate() throws {
        guard let bundle else { return }
        let source = BundleSource(target: bundle)
        // A folder may run unsigned; a bundle file that is not there is reported as such by
        // `run`, before any word about keys it would have needed.
        if case .directory = source { return }
        if source.missingPath != nil { return }
        if options.publicKeys.isEmpty {
            throw ValidationError("missing --pubkey NAME.pub: a bundle runs only when signed by a trusted key")
        }
    }

    func run() throws {
        let source = bundle.map(BundleSource.init(target:))
        if let path = source?.missingPath { throw UserFailure.reporting("\(path): no such file or folder") }
        let app = HybridApp(loop: options.makeEventLoop(for: source))
        let shop = Shop(app: app)
        try AppRunner.run(app, options: options) { (app) throws(AppError) in
            guard let source else { return try shop.openCart() }
            try await app.load(bundle: source, expectedApp: Shop.appName, fallback: { () throws(AppError) in try shop.openCart() })
        }
    }

    static func main() {
        runWithExitStatuses()
    }
}
