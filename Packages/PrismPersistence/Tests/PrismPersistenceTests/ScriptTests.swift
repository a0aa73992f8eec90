import Foundation
import Testing

/// Tools/scripts/with-keyring.sh and install-system-deps.sh, run for real.
@Suite(
    "Test scripts",
    .needsOwnKeyring
)
struct ScriptTests {
    static let withKeyring = repositoryRoot.appendingPathComponent("Tools/scripts/with-keyring.sh")
    static let installDeps = repositoryRoot.appendingPathComponent("Tools/scripts/install-system-deps.sh")

    @Test("with-keyring.sh exits with the command's status", arguments: [0, 1, 7, 42])
    func exitStatus(status: Int32) async throws {
        let child = try await runProcess(Self.withKeyring, ["sh", "-c", "exit \(status)"])
        #expect(child.status == status, "\(child.errors)")
    }

    @Test("with-keyring.sh gives the command a private bus and PRISM_KEYRING=1, and stops the daemon after")
    func environment() async throws {
        let outer = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
        let script = """
            echo "bus=$DBUS_SESSION_BUS_ADDRESS"
            echo "keyring=$PRISM_KEYRING"
            dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
                org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets \
                | sed -n 's/.*uint32 \\([0-9]*\\).*/daemon=\\1/p'
            """
        let child = try await runProcess(Self.withKeyring, ["sh", "-c", script])
        #expect(child.status == 0, "\(child.errors)")
        func value(_ name: String) -> String? {
            child.output.split(separator: "\n").first { $0.hasPrefix("\(name)=") }.map {
                String($0.dropFirst(name.count + 1))
            }
        }
        #expect(value("keyring") == "1")
        let bus = try #require(value("bus"))
        #expect(!bus.isEmpty && bus != outer)
        let daemon = try #require(value("daemon").flatMap { Int32($0) }, "\(child.output)")
        // The wrapper killed and reaped the keyring daemon before it exited.
        #expect(kill(daemon, 0) != 0 && errno == ESRCH)
    }

    @Test("with-keyring.sh without a command prints its usage and fails")
    func usage() async throws {
        let child = try await runProcess(Self.withKeyring, [])
        #expect(child.status == 64)
        #expect(child.errors.contains("usage:"))
    }

    @Test("install-system-deps.sh --check finds everything installed")
    func dependenciesInstalled() async throws {
        let child = try await runProcess(Self.installDeps, ["--check"])
        #expect(child.status == 0, "\(child.output)\(child.errors)")
    }
}
