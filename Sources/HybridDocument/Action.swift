/// What happens on an event (`onPress`, `onChange`, a screen key…), as SPEC §2 defines.
public indirect enum Action: Sendable {
    /// Run the script handler with this name.
    case handler(String)
    /// Store a value at a state path.
    case set(path: String, value: PropertyValue)
    /// Call a native service, optionally storing its result at a state path.
    case call(service: String, params: PropertyValue?, result: String?)
    /// Open a screen by `app://` URL.
    case navigate(url: PropertyValue)
    /// Go back to the previous screen.
    case back
    /// Leave the app.
    case quit
    /// Run a script handler with arguments.
    case script(handler: String, args: PropertyValue?)
    /// Several actions, in order.
    case sequence([Action])
}
