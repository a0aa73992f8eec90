import Foundation
import Testing

@testable import PrismPersistence

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// "café" typed with a precomposed "é" (NFC) and with "e" and a combining accent (NFD) is one
/// key: one file, one keychain item, one defaults entry, on every file system.
@Suite("Keys are Unicode-normalised")
struct KeyNormalisationTests {
    static let composed = "caf\u{E9}-r\u{E9}sum\u{E9}"
    static let decomposed = "cafe\u{301}-re\u{301}sume\u{301}"

    /// Whether `directory` lists a file whose name has exactly these bytes. Swift's `==` on
    /// strings cannot tell the two spellings apart, and neither can `stat()` on a file system that
    /// ignores normalisation (APFS, HFS+); the listing gives each name as it was created.
    static func exists(_ name: String, in directory: URL) -> Bool {
        allFileNames(in: directory).contains { Array($0.utf8) == Array(name.utf8) }
    }

    @Test("the two spellings differ in bytes, and are the same key")
    func spellings() throws {
        #expect(Array(Self.composed.utf8) != Array(Self.decomposed.utf8))
        #expect(Array(try PersistenceKey.normalized(Self.decomposed).utf8) == Array(Self.composed.utf8))
        #expect(try PersistenceKey.normalized("plain_ascii") == "plain_ascii")
    }

    @Test("a state saved under one spelling is one file, named in NFC, and loads under the other")
    func disk() async throws {
        try await withDiskPersistence { persistence, directory in
            try persistence.save(["first"], key: Self.decomposed)
            #expect(Self.exists("\(Self.composed).json", in: directory))
            #expect(!Self.exists("\(Self.decomposed).json", in: directory))
            #expect(try persistence.load(key: Self.composed) == ["first"])
            try persistence.save(["second"], key: Self.composed)
            #expect(try persistence.load(key: Self.decomposed) == ["second"])
            #expect(fileNames(in: directory).count == 1)
            try persistence.clear(key: Self.decomposed)
            #expect(fileNames(in: directory).isEmpty)
        }
    }

    @Test("a file an earlier version saved under a decomposed name is still found under that key")
    func legacyFile() async throws {
        try await withDiskPersistence { persistence, directory in
            // What an earlier version wrote for the decomposed key: a file with that exact name.
            let legacy = "\(directory.path)/\(Self.decomposed).json"
            let envelope = Data("{\"version\":1,\"state\":[\"old\"]}".utf8)
            let descriptor = legacy.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
            try #require(descriptor >= 0)
            _ = envelope.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)

            #expect(try persistence.load(key: Self.decomposed) == ["old"])
            // The next save writes the normalised name, which wins from then on.
            try persistence.save(["new"], key: Self.decomposed)
            #expect(Self.exists("\(Self.composed).json", in: directory))
            #expect(try persistence.load(key: Self.decomposed) == ["new"])
            #expect(try persistence.load(key: Self.composed) == ["new"])
            // Clearing the key clears both names.
            try persistence.clear(key: Self.decomposed)
            #expect(fileNames(in: directory).isEmpty)
        }
    }

    @Test("UserDefaults: one entry for both spellings")
    func userDefaults() throws {
        try withDefaultsSuite { suite in
            let persistence = PrismUserDefaultsPersistence(suiteName: suite)
            try persistence.save(Settings(theme: "dark", fontSize: 1), key: Self.decomposed)
            #expect(try persistence.load(key: Self.composed) == Settings(theme: "dark", fontSize: 1))
            try persistence.clear(key: Self.composed)
            let cleared: Settings? = try persistence.load(key: Self.decomposed)
            #expect(cleared == nil)
        }
    }

    @Test(
        "the keychain: one item for both spellings",
        .needsSecretService
    )
    func keychain() throws {
        let persistence = PrismKeychainPersistence(service: "prism-persistence-tests-nfc-\(UUID().uuidString)")
        try persistence.save(Credentials(token: "t"), key: Self.decomposed)
        #expect(try persistence.load(key: Self.composed) == Credentials(token: "t"))
        try persistence.clear(key: Self.composed)
        let cleared: Credentials? = try persistence.load(key: Self.decomposed)
        #expect(cleared == nil)
    }
}
