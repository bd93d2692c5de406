import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

extension ParsableCommand {
    /// Parses the command line and runs the command with SPEC §6's exit statuses: 0 success,
    /// 1 a user error (already reported by the command, as a `UserFailure`), 2 bad usage.
    public static func runWithExitStatuses() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            Glibc.exit(0)
        } catch let failure as UserFailure {
            Glibc.exit(failure.status)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                FileHandleOutput.standardOutput(Array((fullMessage(for: error) + "\n").utf8))
                Glibc.exit(0)
            }
            FileHandleOutput.standardError(fullMessage(for: error))
            Glibc.exit(2)
        }
    }
}
