extension JSONValue {
    /// This value with `overlay` merged in: objects merge member by member (recursively),
    /// anything else is replaced. Used for `--state` files over a screen's own state.
    public func merging(_ overlay: JSONValue) -> JSONValue {
        guard case .object(var base) = self, case .object(let top) = overlay else { return overlay }
        for member in top {
            base[member.key] = base[member.key].map { $0.merging(member.value) } ?? member.value
        }
        return .object(base)
    }
}
