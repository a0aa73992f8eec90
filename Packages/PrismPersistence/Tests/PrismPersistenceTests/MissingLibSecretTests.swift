#if !canImport(Security)
import Foundation
import Testing

@testable import PrismPersistence

/// On a Linux machine without libsecret, the keychain says what to install and the other
/// strategies work: libsecret is loaded at run time, never needed to build.
@Suite("A machine without libsecret")
struct MissingLibSecretTests {
    struct Token: Codable, Equatable, Sendable {
        var value: String
    }

    let keychain = PrismKeychainPersistence(service: "prism-tests-missing", library: "libsecret-missing-for-tests.so.0")

    @Test("every keychain call throws secretServiceUnavailable, saying what to install")
    func keychainSaysWhatToInstall() throws {
        let save = #expect(throws: PrismPersistenceError.self) {
            try keychain.save(Token(value: "secret"), key: "token")
        }
        #expect(save?.code == .secretServiceUnavailable)
        #expect(save?.message.contains("apt install libsecret-1-0") == true)
        #expect(save?.message.contains("libsecret-missing-for-tests.so.0") == true)
        #expect(save?.message.contains("secret") == true)
        let load = #expect(throws: PrismPersistenceError.self) {
            let _: Token? = try keychain.load(key: "token")
        }
        #expect(load?.code == .secretServiceUnavailable)
        let clear = #expect(throws: PrismPersistenceError.self) {
            try keychain.clear(key: "token")
        }
        #expect(clear?.code == .secretServiceUnavailable)
    }

    @Test("the error never carries the value that was being saved")
    func noSecretInTheError() throws {
        let error = #expect(throws: PrismPersistenceError.self) {
            try keychain.save(Token(value: "hunter2-do-not-log"), key: "token")
        }
        #expect(error.map { "\($0)".contains("hunter2") } == false)
    }

    @Test("the disk strategy works all the same")
    func diskStillWorks() async throws {
        try await withDiskPersistence { disk, _ in
            try disk.save(Token(value: "on disk"), key: "token")
            let loaded: Token? = try disk.load(key: "token")
            #expect(loaded == Token(value: "on disk"))
        }
    }

    @Test("the libsecret that is installed is found and loaded")
    func installedLibraryLoads() {
        guard case .success = LibSecret.shared else {
            Issue.record(
                "libsecret-1.so.0 should be installed where these tests run (make deps installs libsecret-1-0)")
            return
        }
    }
}
#endif
