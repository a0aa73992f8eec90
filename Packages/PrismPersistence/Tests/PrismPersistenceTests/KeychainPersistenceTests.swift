import Foundation
import Testing

@testable import PrismPersistence

/// Against the real Secret Service (gnome-keyring in the private D-Bus session of
/// Tools/scripts/with-keyring.sh, which sets PRISM_KEYRING=1). Each test uses a service name of
/// its own, so they can run in parallel.
@Suite(
    "Keychain persistence against a real Secret Service",
    .needsSecretService
)
struct KeychainPersistenceTests {
    func service(_ name: String = #function) -> String {
        "prism-persistence-tests-\(name.prefix { $0.isLetter })-\(UUID().uuidString.prefix(8))"
    }

    @Test("the default service name is PrismStatePersistence")
    func defaultService() {
        #expect(PrismKeychainPersistence().service == "PrismStatePersistence")
        #expect(PrismKeychainPersistence.defaultService == "PrismStatePersistence")
    }

    @Test("a saved state loads back equal, and clear removes it")
    func roundTrip() throws {
        let persistence = PrismKeychainPersistence(service: service())
        let credentials = Credentials(token: "s3cr3t-ünïcødé-\u{1F511}")
        try persistence.save(credentials, key: "auth_credentials")
        #expect(try persistence.load(key: "auth_credentials") == credentials)
        try expectClearing("auth_credentials", of: Credentials.self, in: persistence)
    }

    @Test("macOS's choice of keychain changes nothing elsewhere: either choice reads what the other saved")
    func macOSKeychainElsewhere() throws {
        let service = service()
        let fileBased = PrismKeychainPersistence(service: service, macOSKeychain: .fileBased)
        try fileBased.save(Credentials(token: "saved as fileBased"), key: "auth")
        let dataProtection = PrismKeychainPersistence(service: service, macOSKeychain: .dataProtection)
        #expect(try dataProtection.load(key: "auth") == Credentials(token: "saved as fileBased"))
        try expectClearing("auth", of: Credentials.self, in: dataProtection)
    }

    @Test("a key that was never saved loads as nil")
    func missing() throws {
        let loaded: Credentials? = try PrismKeychainPersistence(service: service()).load(key: "nothing")
        #expect(loaded == nil)
    }

    @Test("a save replaces the secret in place: one item, the latest value")
    func update() throws {
        let service = service()
        let persistence = PrismKeychainPersistence(service: service)
        for index in 0..<5 {
            try persistence.save(Credentials(token: "token-\(index)"), key: "auth")
        }
        #expect(try persistence.load(key: "auth") == Credentials(token: "token-4"))
        // One clear removes it: there were no duplicates.
        try persistence.clear(key: "auth")
        let cleared: Credentials? = try persistence.load(key: "auth")
        #expect(cleared == nil)
    }

    @Test("keys and services are separate namespaces")
    func namespaces() throws {
        let first = PrismKeychainPersistence(service: service())
        let second = PrismKeychainPersistence(service: service())
        try first.save(Credentials(token: "a"), key: "k1")
        try first.save(Credentials(token: "b"), key: "k2")
        try second.save(Credentials(token: "c"), key: "k1")
        #expect(try first.load(key: "k1") == Credentials(token: "a"))
        #expect(try first.load(key: "k2") == Credentials(token: "b"))
        #expect(try second.load(key: "k1") == Credentials(token: "c"))
        try first.clear(key: "k1")
        #expect(try second.load(key: "k1") == Credentials(token: "c"))
        try first.clear(key: "k2")
        try second.clear(key: "k1")
    }

    @Test("a large state survives the round trip")
    func large() throws {
        let persistence = PrismKeychainPersistence(service: service())
        let state = CrashState.make(42)
        try persistence.save(state, key: "large")
        #expect(try persistence.load(key: "large") == state)
        try persistence.clear(key: "large")
    }

    @Test("a secret that does not decode is moved to another account and reported")
    func corrupt() throws {
        let service = service()
        let persistence = PrismKeychainPersistence(service: service)
        try persistence.save(["not", "credentials"], key: "auth")
        let error = persistenceError {
            let _: Credentials? = try persistence.load(key: "auth")
        }
        #expect(error?.code == .decodingFailed)
        let aside = try #require(error?.movedAsideKey)
        #expect(aside.hasPrefix("auth.corrupt-"))
        #expect(try persistence.load(key: aside) == ["not", "credentials"])
        let gone: Credentials? = try persistence.load(key: "auth")
        #expect(gone == nil)
        try persistence.clear(key: aside)
    }

    #if os(Linux)
    @Test("another process of the same application sees the secret: it is in the Secret Service, not in this process")
    func anotherProcess() async throws {
        let service = service()
        let persistence = PrismKeychainPersistence(service: service, application: "prism-tests-app")
        try persistence.save(Credentials(token: "shared"), key: "auth")
        let child = try await TestHelper.run(["keychain-load", service, "auth", "prism-tests-app"])
        #expect(child.result == "loaded shared", "\(child.output)\(child.errors)")
        try persistence.clear(key: "auth")
    }

    @Test("the default application is the executable's name, so another program's items are not this one's")
    func defaultApplication() async throws {
        #expect(PrismKeychainPersistence.defaultApplication == ProcessInfo.processInfo.processName)
        #expect(PrismKeychainPersistence().application == PrismKeychainPersistence.defaultApplication)
        let service = service()
        // The helper saves as itself (its executable's name); this process sees the item only
        // as that application.
        let saved = try await TestHelper.run(["keychain-save", service, "auth", "helper-token"])
        #expect(saved.result == "saved", "\(saved.output)\(saved.errors)")
        let mine: Credentials? = try PrismKeychainPersistence(service: service).load(key: "auth")
        #expect(mine == nil)
        let helper = PrismKeychainPersistence(service: service, application: "PrismPersistenceTestHelper")
        #expect(try helper.load(key: "auth") == Credentials(token: "helper-token"))
        try helper.clear(key: "auth")
    }

    @Test("two applications with the same service and key never read, overwrite or clear each other's items")
    func applicationsAreApart() async throws {
        let service = service()
        func run(_ arguments: String...) async throws -> String {
            let child = try await TestHelper.run(arguments)
            return child.result ?? "\(child.output)\(child.errors)"
        }
        #expect(try await run("keychain-save", service, "session", "token-of-a", "app-a") == "saved")
        #expect(try await run("keychain-load", service, "session", "app-b") == "nil")
        #expect(try await run("keychain-save", service, "session", "token-of-b", "app-b") == "saved")
        #expect(try await run("keychain-load", service, "session", "app-a") == "loaded token-of-a")
        #expect(try await run("keychain-clear", service, "session", "app-b") == "cleared")
        #expect(try await run("keychain-load", service, "session", "app-a") == "loaded token-of-a")
        #expect(try await run("keychain-load", service, "session", "app-b") == "nil")
        #expect(try await run("keychain-clear", service, "session", "app-a") == "cleared")
    }

    @Test("an item one application cannot decode is not moved aside by another")
    func undecodableItemOfAnotherApplication() throws {
        let service = service()
        let first = PrismKeychainPersistence(service: service, application: "app-a")
        let second = PrismKeychainPersistence(service: service, application: "app-b")
        try first.save(["a", "list", "not", "credentials"], key: "auth")
        let loaded: Credentials? = try second.load(key: "auth")
        #expect(loaded == nil)
        #expect(try first.load(key: "auth") == ["a", "list", "not", "credentials"])
        try first.clear(key: "auth")
    }

    /// The Secret Service's items as Prism 0.1 saved them (no application), with one under
    /// "auth".
    func savedBeforeApplications(service: String) throws -> SecretServiceStore {
        let shared = SecretServiceStore(service: service, namespace: .shared)
        try shared.saveState(Credentials(token: "from-before"), key: "auth")
        return shared
    }

    @Test("an item an earlier version saved for every application is adopted by the first to load it, and only by it")
    func sharedItemAdopted() throws {
        let service = service()
        let shared = try savedBeforeApplications(service: service)
        let first = PrismKeychainPersistence(service: service, application: "app-a", sharedItems: .adopt)
        let second = PrismKeychainPersistence(service: service, application: "app-b", sharedItems: .adopt)
        #expect(try first.load(key: "auth") == Credentials(token: "from-before"))
        #expect(try shared.loadState(Credentials.self, key: "auth") == nil, "moved, not copied")
        let other: Credentials? = try second.load(key: "auth")
        #expect(other == nil)
        #expect(try first.load(key: "auth") == Credentials(token: "from-before"))
        try first.clear(key: "auth")
    }

    @Test("by default (sharedItems: .ignore), an item of an earlier version is neither read nor touched")
    func sharedItemIgnored() throws {
        let service = service()
        let shared = try savedBeforeApplications(service: service)
        // The default: no application gets a secret of every application's by asking first.
        let persistence = PrismKeychainPersistence(service: service, application: "app-a")
        let loaded: Credentials? = try persistence.load(key: "auth")
        #expect(loaded == nil)
        try persistence.save(Credentials(token: "new"), key: "auth")
        try persistence.clear(key: "auth")
        #expect(try shared.loadState(Credentials.self, key: "auth") == Credentials(token: "from-before"))
        try shared.clearState(key: "auth")
    }

    @Test(
        "with .adopt, a clear also removes an earlier version's shared item, so a signed-out secret does not come back")
    func clearRemovesSharedItem() throws {
        let service = service()
        let shared = try savedBeforeApplications(service: service)
        let persistence = PrismKeychainPersistence(service: service, application: "app-a", sharedItems: .adopt)
        try persistence.clear(key: "auth")
        let loaded: Credentials? = try persistence.load(key: "auth")
        #expect(loaded == nil)
        #expect(try shared.loadState(Credentials.self, key: "auth") == nil)
    }
    #endif
}
