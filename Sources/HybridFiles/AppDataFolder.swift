import Foundation

/// Where an app keeps what must outlive a run (SPEC §3 storage, §7.1 outbox, §7.3 database):
/// `$XDG_DATA_HOME/hybridterm/APP/`, by default `~/.local/share/hybridterm/APP/`.
public enum AppDataFolder {
    /// The data folder of `app`, nil when `app` is not a plain folder name: empty, starting
    /// with `.` (so `.` and `..`), or holding `/`, `\` or NUL — such a name could put the data
    /// outside `hybridterm/` (`../other-app`) or in a hidden folder.
    public static func path(for app: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard !app.isEmpty, !app.hasPrefix("."), !app.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" }) else { return nil }
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileSystem.join(environment["HOME"] ?? NSHomeDirectory(), ".local/share")
        return FileSystem.join(FileSystem.join(base, "hybridterm"), app)
    }
}
