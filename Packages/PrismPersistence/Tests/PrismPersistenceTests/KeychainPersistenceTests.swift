import Foundation
import Testing

@testable import PrismPersistence

/// Against the real Secret Service (gnome-keyring in the private D-Bus session of
/// Tools/scripts/with-keyring.sh, which sets PRISM_KEYRING=1). Each test uses a service name of
/// its own, so they can run in parallel.
@Suite(
    "Keychain persistence against a real Secret Service",
    .enabled(if: isInsideKeyring, "needs the Secret Service: run the tests inside Tools/scripts/with-keyring.sh")
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
        try persistence.clear(key: "auth_credentials")
        let cleared: Credentials? = try persistence.load(key: "auth_credentials")
        #expect(cleared == nil)
        try persistence.clear(key: "auth_credentials")
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
    @Test("another process sees the secret: it is in the Secret Service, not in this process")
    func anotherProcess() async throws {
        let service = service()
        try PrismKeychainPersistence(service: service).save(Credentials(token: "shared"), key: "auth")
        let child = try await TestHelper.run(["keychain-load", service, "auth"])
        #expect(child.result == "loaded shared", "\(child.output)\(child.errors)")
        try PrismKeychainPersistence(service: service).clear(key: "auth")
    }
    #endif
}
