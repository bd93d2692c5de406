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
            do {
                try command.run()
            } catch is CleanExit {
                // A group run without its subcommand (`hybrid`, `hybrid cache`): the default
                // `run()` asks for help, but nothing was asked for: bad usage, with the usage.
                FileHandleOutput.standardError("Error: missing a subcommand\n" + helpMessage(for: type(of: command)))
                Glibc.exit(2)
            }
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
