import HybridTerm

/// One line of the cart: `qty` units of `sku` at `price` each.
struct CartLine: Codable, Sendable, Equatable {
    var sku: String
    var price: Double
    var qty: Int
}

/// What `cart.add` takes (SPEC §4's example service).
struct AddItem: Codable, Sendable {
    var sku: String
    var price: Double
    var qty: Int
}

/// What `cart.add` and `cart.clear` answer: the lines and their total, so a screen gets both
/// from one call.
struct CartSummary: Codable, Sendable {
    var items: [CartLine]
    var total: Double
}

/// The cart as `Cart.total` sees it: the argument a hot fix receives, as JSON.
struct CartContents: Codable, Sendable {
    var items: [CartLine]
}

/// The shop's cart, kept natively: scripts and screens reach it only through the `cart.*`
/// services. Touched on the app's loop thread only (services run there).
final class Cart: @unchecked Sendable {
    private(set) var lines: [CartLine] = []

    /// Empties the cart.
    func clear() {
        lines.removeAll()
    }

    /// Adds `item`, merging it into the line of the same SKU.
    func add(_ item: AddItem) throws {
        guard !item.sku.isEmpty else { throw ServiceError(.badParams, "cart.add: field \"sku\": expected a product code, got an empty string") }
        guard item.qty >= 1 else { throw ServiceError(.badParams, "cart.add: field \"qty\": expected 1 or more, got \(item.qty)") }
        guard item.price >= 0, item.price.isFinite else { throw ServiceError(.badParams, "cart.add: field \"price\": expected a price of 0 or more, got \(item.price)") }
        if let index = lines.firstIndex(where: { $0.sku == item.sku }) {
            lines[index].qty += item.qty
        } else {
            lines.append(CartLine(sku: item.sku, price: item.price, qty: item.qty))
        }
    }

    /// The total as shipped in 1.0 — with the deliberate bug the walkthrough hot-fixes: each
    /// line counts once, whatever its quantity.
    static func shippedTotal(_ cart: CartContents) -> Double {
        cart.items.reduce(0) { $0 + $1.price }
    }
}
