import Foundation
import Testing

@testable import PrismPersistence

@Suite("Keys are plain file names")
struct KeyValidationTests {
    static let invalidKeys: [String] = [
        "",
        ".",
        "..",
        "../escape",
        "a/b",
        "/etc/passwd",
        "sub\\dir",
        "nul\0byte",
        "line\nbreak",
        "tab\there",
        "delete\u{7F}",
        "c1\u{85}control",
        String(repeating: "k", count: 201),
        String(repeating: "é", count: 101),
    ]

    @Test("the disk strategy rejects an unsafe key and writes nothing", arguments: invalidKeys)
    func disk(key: String) async {
        await withTemporaryDirectory { directory in
            let inner = directory.appendingPathComponent("store", isDirectory: true)
            let persistence = PrismDiskPersistence(directory: inner)
            let saveError = persistenceError { try persistence.save(["value"], key: key) }
            #expect(saveError?.code == .invalidKey)
            #expect(saveError?.key == key)
            #expect(saveError?.description.contains("plain file name") == true)
            let loadError = persistenceError {
                let _: [String]? = try persistence.load(key: key)
            }
            #expect(loadError?.code == .invalidKey)
            #expect(persistenceError { try persistence.clear(key: key) }?.code == .invalidKey)
            // Not even the folder was created, and nothing appeared above it.
            #expect(fileNames(in: directory).isEmpty)
        }
    }

    @Test("the UserDefaults strategy rejects an unsafe key", arguments: invalidKeys)
    func userDefaults(key: String) {
        let persistence = PrismUserDefaultsPersistence(suiteName: "prism-persistence-tests-keys")
        #expect(persistenceError { try persistence.save(1, key: key) }?.code == .invalidKey)
        #expect(
            persistenceError {
                let _: Int? = try persistence.load(key: key)
            }?.code == .invalidKey
        )
    }

    @Test("the keychain strategy rejects an unsafe key before it reaches the keychain", arguments: invalidKeys)
    func keychain(key: String) {
        let persistence = PrismKeychainPersistence(service: "prism-persistence-tests-keys")
        #expect(persistenceError { try persistence.save(1, key: key) }?.code == .invalidKey)
        #expect(persistenceError { try persistence.clear(key: key) }?.code == .invalidKey)
    }

    @Test(
        "ordinary keys are accepted",
        arguments: ["app_state", "user.settings", "a", "Ünïcödé-κλειδί", ".hidden", String(repeating: "k", count: 200)])
    func accepted(key: String) async throws {
        try await withDiskPersistence { persistence, directory in
            try persistence.save([key], key: key)
            #expect(try persistence.load(key: key) == [key])
            #expect(fileNames(in: directory) == ["\(key).json"])
        }
    }
}
