/// The `domain.verb` shape of a service name (`cart.add`, `net.request`): dot-separated parts,
/// at least two, each starting with a letter and holding letters, digits, `_` and `-`.
///
/// Here, below both, because the screen format (a `call` action's `service`) and the service
/// registry must agree on it: a document is refused for a name the registry could never hold.
public enum ServiceName {
    /// Whether `name` has the shape of a service name.
    public static func isValid(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { part in
            guard let first = part.first, first.isLetter else { return false }
            return part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        }
    }
}
