import Foundation
import Testing

@testable import PrismPersistence

/// The keychain's failures are thrown errors that say what is wrong, never a silent `nil`.
///
/// libsecret keeps one D-Bus connection per process, so each case runs in a child process with
/// the environment it needs.
@Suite("Keychain errors without a usable Secret Service")
struct KeychainFailureTests {
    #if os(Linux)
    /// This process's environment with no reachable D-Bus session bus.
    static var environmentWithoutBus: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/prism-no-session-bus"
        environment["DISPLAY"] = nil
        return environment
    }

    @Test(
        "no Secret Service is a secretServiceUnavailable error for load, save and clear",
        arguments: [
            ["keychain-load", "svc", "auth"], ["keychain-save", "svc", "auth", "t"], ["keychain-clear", "svc", "auth"],
        ]
    )
    func noService(arguments: [String]) async throws {
        let child = try await TestHelper.run(arguments, environment: Self.environmentWithoutBus)
        let result = try #require(child.result, "\(child.output)\(child.errors)")
        #expect(result.hasPrefix("error secretServiceUnavailable"), "\(result)")
        #expect(result.contains("no Secret Service"))
        // The GError's own message is in it.
        #expect(result.contains("Could not connect"), "\(result)")
    }

    @Test("no D-Bus session at all is a secretServiceUnavailable error too")
    func noSession() async throws {
        var environment = Self.environmentWithoutBus
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["XDG_RUNTIME_DIR"] = "/nonexistent/prism-no-runtime-dir"
        let child = try await TestHelper.run(["keychain-load", "svc", "auth"], environment: environment)
        let result = try #require(child.result, "\(child.output)\(child.errors)")
        #expect(result.hasPrefix("error secretServiceUnavailable"), "\(result)")
    }

    @Test(
        "a locked collection is a keychainLocked error for load, save and clear",
        .needsOwnKeyring
    )
    func locked() async throws {
        // A keyring of its own (a nested with-keyring.sh), locked after a save, as a user would.
        let script = """
            "$0" keychain-save svc auth token && "$0" keychain-lock && "$0" keychain-load svc auth \
            && "$0" keychain-save svc auth other && "$0" keychain-clear svc auth
            """
        guard let results = try await TestHelper.resultsInOwnKeyring(of: script, count: 5) else { return }
        #expect(results[0] == "saved")
        #expect(results[1] == "locked 1")
        for result in results[2...] {
            #expect(result.hasPrefix("error keychainLocked"), "\(result)")
            #expect(result.contains("locked"))
        }
    }
    #endif

    @Test("CI runs the keychain tests for real: inside with-keyring.sh, never skipped")
    func ciRunsThem() {
        let environment = ProcessInfo.processInfo.environment
        #if os(Linux)
        #expect(
            environment["CI"] == nil || isInsideKeyring,
            "CI must run `swift test` inside Tools/scripts/with-keyring.sh, or the keychain tests are skipped"
        )
        #endif
    }
}
