/// Who is calling a service: which permissions its bundle requested and the host granted.
public struct ServiceCaller: Sendable {
    /// Granted permissions; `nil` grants all (the host itself, `hybrid eval`).
    public var permissions: Set<String>?
    /// A name for messages and logs (the app or script).
    public var name: String

    /// A caller with these granted permissions.
    public init(name: String, permissions: Set<String>?) {
        self.name = name
        self.permissions = permissions
    }

    /// The host itself: every permission.
    public static let host = ServiceCaller(name: "host", permissions: nil)

    func isGranted(_ permission: String?) -> Bool {
        guard let permission, let permissions else { return true }
        return permissions.contains(permission)
    }
}
