import Foundation
import Testing

@testable import PrismPersistence

@Suite("Versioned envelopes and migrations")
struct MigrationTests {
    /// Version 1 of a note: what an app without versioning saved.
    struct NoteV1: Codable, Sendable, Equatable {
        var title: String
    }

    /// Version 2 added `pinned`.
    struct NoteV2: PrismVersionedState, Equatable {
        var title: String
        var pinned: Bool

        static let persistenceMigrations = PrismPersistenceMigrations(currentVersion: 2) {
            $0.migrate(from: 1, fromVersion1)
        }

        /// A version 1 note's JSON as version 2's: not pinned.
        static func fromVersion1(_ data: Data) throws -> Data {
            let old = try JSONDecoder().decode(NoteV1.self, from: data)
            return try JSONEncoder().encode(NoteV2(title: old.title, pinned: false))
        }
    }

    /// Version 3 renamed `title` to `heading`, with the JSON edited in place.
    struct NoteV3: PrismVersionedState, Equatable {
        var heading: String
        var pinned: Bool

        static let persistenceMigrations = PrismPersistenceMigrations(currentVersion: 3) {
            $0.migrate(from: 1, NoteV2.fromVersion1)
            $0.migrate(from: 2) { data in
                guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                    throw MigrationRefused()
                }
                object["heading"] = object.removeValue(forKey: "title")
                return try JSONSerialization.data(withJSONObject: object)
            }
        }
    }

    /// Version 3 with the migration from 1 forgotten.
    struct NoteWithGap: PrismVersionedState {
        var heading: String

        static let persistenceMigrations = PrismPersistenceMigrations(currentVersion: 3) {
            $0.migrate(from: 2) { $0 }
        }
    }

    struct MigrationRefused: Error {}

    /// Version 2 whose migration throws.
    struct NoteWithFailingMigration: PrismVersionedState {
        var title: String

        static let persistenceMigrations = PrismPersistenceMigrations(currentVersion: 2) {
            $0.migrate(from: 1) { _ in throw MigrationRefused() }
        }
    }

    @Test("a state that is not versioned is saved at version 1, a versioned one at its version")
    func versionsInEnvelope() async throws {
        try await withDiskPersistence { persistence, directory in
            try persistence.save(NoteV1(title: "a"), key: "v1")
            try persistence.save(NoteV3(heading: "b", pinned: true), key: "v3")
            for (key, version) in [("v1", 1), ("v3", 3)] {
                let data = try Data(contentsOf: directory.appendingPathComponent("\(key).json"))
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                #expect(object?["version"] as? Int == version)
            }
            #expect(try persistence.load(key: "v3") == NoteV3(heading: "b", pinned: true))
        }
    }

    @Test("a load of an older version runs the migration")
    func migrates() async throws {
        try await withDiskPersistence { persistence, _ in
            try persistence.save(NoteV1(title: "Groceries"), key: "note")
            let loaded: NoteV2? = try persistence.load(key: "note")
            #expect(loaded == NoteV2(title: "Groceries", pinned: false))
            // Loading does not rewrite the file; the next save does, at the new version.
            let again: NoteV2? = try persistence.load(key: "note")
            #expect(again == loaded)
        }
    }

    @Test("migrations chain from the stored version to the current one")
    func chains() async throws {
        try await withDiskPersistence { persistence, _ in
            try persistence.save(NoteV1(title: "from one"), key: "one")
            try persistence.save(NoteV2(title: "from two", pinned: true), key: "two")
            #expect(try persistence.load(key: "one") == NoteV3(heading: "from one", pinned: false))
            #expect(try persistence.load(key: "two") == NoteV3(heading: "from two", pinned: true))
        }
    }

    @Test("a newer version is an error, not a reset, and the value is kept aside")
    func newerVersion() async throws {
        try await withDiskPersistence { persistence, directory in
            try persistence.save(NoteV2(title: "from the future", pinned: true), key: "note")
            let original = try Data(contentsOf: directory.appendingPathComponent("note.json"))
            let error = persistenceError {
                let _: NoteV1? = try persistence.load(key: "note")
            }
            #expect(error?.code == .unsupportedVersion)
            #expect(error?.version == 2)
            let aside = try #require(error?.movedAsideURL)
            #expect(aside.lastPathComponent.hasPrefix("note.json.version-2-"))
            #expect(try Data(contentsOf: aside) == original)
        }
    }

    @Test("an unknown version (0, negative) is an error too")
    func unknownVersion() async throws {
        try await withTemporaryDirectory { directory in
            try Data(#"{"version":0,"state":{"title":"x"}}"#.utf8).write(
                to: directory.appendingPathComponent("note.json"))
            let error = persistenceError {
                let _: NoteV2? = try PrismDiskPersistence(directory: directory).load(key: "note")
            }
            #expect(error?.code == .unsupportedVersion)
            #expect(error?.version == 0)
        }
    }

    @Test("an older version with no migration registered is migrationMissing, kept aside")
    func missingMigration() async throws {
        try await withDiskPersistence { persistence, _ in
            try persistence.save(NoteV1(title: "old"), key: "note")
            let error = persistenceError {
                let _: NoteWithGap? = try persistence.load(key: "note")
            }
            #expect(error?.code == .migrationMissing)
            #expect(error?.version == 1)
            #expect(error?.message.contains("no migration from version 1") == true)
            #expect(error?.movedAsideURL != nil)
        }
    }

    @Test("a migration that throws is migrationFailed, with its error, and the value is kept aside")
    func failingMigration() async throws {
        try await withDiskPersistence { persistence, directory in
            try persistence.save(NoteV1(title: "old"), key: "note")
            let original = try Data(contentsOf: directory.appendingPathComponent("note.json"))
            let error = persistenceError {
                let _: NoteWithFailingMigration? = try persistence.load(key: "note")
            }
            #expect(error?.code == .migrationFailed)
            #expect(error?.underlying is MigrationRefused)
            let aside = try #require(error?.movedAsideURL)
            #expect(try Data(contentsOf: aside) == original)
        }
    }

    @Test("migrations work with every strategy: UserDefaults moves a bad value to another key")
    func userDefaults() throws {
        try withDefaultsSuite { suite in
            let persistence = PrismUserDefaultsPersistence(suiteName: suite)
            try persistence.save(NoteV1(title: "Groceries"), key: "note")
            #expect(try persistence.load(key: "note") == NoteV2(title: "Groceries", pinned: false))

            try persistence.save(NoteV2(title: "new", pinned: true), key: "newer")
            let error = persistenceError {
                let _: NoteV1? = try persistence.load(key: "newer")
            }
            #expect(error?.code == .unsupportedVersion)
            let asideKey = try #require(error?.movedAsideKey)
            #expect(asideKey.hasPrefix("newer.version-2-"))
            #expect(try persistence.load(key: asideKey) == NoteV2(title: "new", pinned: true))
            let gone: NoteV2? = try persistence.load(key: "newer")
            #expect(gone == nil)
        }
    }
}
