import Foundation
import Testing

@testable import PrismPersistence

@Suite("Unreadable files are moved aside, never replaced")
struct DiskCorruptionTests {
    struct Document: Codable, Sendable, Equatable {
        var title: String
        var body: String
    }

    /// A file's content that must not load as a `Document`, and the code that says why.
    struct Damage: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var code: PrismPersistenceError.Code
        var testDescription: String { name }
    }

    static let valid = Array(#"{"version":1,"state":{"title":"Plans","body":"Many plans"}}"#.utf8)

    static let damages: [Damage] = [
        Damage(name: "truncated", bytes: Array(valid.prefix(valid.count / 2)), code: .corruptFile),
        Damage(name: "empty", bytes: [], code: .corruptFile),
        Damage(name: "binary", bytes: [0x00, 0xFF, 0xFE, 0x13, 0x37, 0x00, 0x80, 0x81], code: .corruptFile),
        Damage(
            name: "JSON without an envelope", bytes: Array(#"{"title":"Plans","body":"x"}"#.utf8), code: .corruptFile),
        Damage(name: "a JSON array", bytes: Array("[1,2,3]".utf8), code: .corruptFile),
        Damage(
            name: "an envelope of another type",
            bytes: Array(#"{"version":1,"state":{"name":"Ada","age":36}}"#.utf8),
            code: .decodingFailed
        ),
        Damage(
            name: "an envelope with a state of the wrong type",
            bytes: Array(#"{"version":1,"state":"just a string"}"#.utf8),
            code: .decodingFailed
        ),
    ]

    @Test("a damaged file is moved aside with its bytes intact and reported", arguments: damages)
    func movedAside(damage: Damage) async throws {
        try await withDiskPersistence { persistence, directory in
            let file = directory.appendingPathComponent("document.json")
            try Data(damage.bytes).write(to: file)

            let error = persistenceError {
                let _: Document? = try persistence.load(key: "document")
            }
            #expect(error?.code == damage.code)
            #expect(error?.key == "document")
            #expect(error?.url?.lastPathComponent == "document.json")
            let aside = try #require(error?.movedAsideURL)
            #expect(aside.lastPathComponent.hasPrefix("document.json.corrupt-"))
            #expect(try Data(contentsOf: aside) == Data(damage.bytes))
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(error?.description.contains(aside.path) == true)

            // Nothing is there now; a new save does not touch what was moved aside.
            let reloaded: Document? = try persistence.load(key: "document")
            #expect(reloaded == nil)
            try persistence.save(Document(title: "New", body: ""), key: "document")
            #expect(try Data(contentsOf: aside) == Data(damage.bytes))
            #expect(fileNames(in: directory).count == 2)
        }
    }

    @Test("a state type that gained a non-optional property gets an error that names it")
    func gainedProperty() async throws {
        struct DocumentV2: Codable, Sendable {
            var title: String
            var body: String
            var author: String
        }
        try await withDiskPersistence { persistence, directory in
            try persistence.save(Document(title: "Plans", body: "Many plans"), key: "document")
            let original = try Data(contentsOf: directory.appendingPathComponent("document.json"))

            let error = persistenceError {
                let _: DocumentV2? = try persistence.load(key: "document")
            }
            #expect(error?.code == .decodingFailed)
            #expect(error?.message.contains("\"author\"") == true)
            #expect(error?.underlying is DecodingError)
            let aside = try #require(error?.movedAsideURL)
            #expect(try Data(contentsOf: aside) == original)

            // The data is still there for the old type, once moved back.
            try FileManager.default.moveItem(at: aside, to: directory.appendingPathComponent("document.json"))
            let old: Document? = try persistence.load(key: "document")
            #expect(old == Document(title: "Plans", body: "Many plans"))
        }
    }

    @Test("two files moved aside in the same second get different names")
    func distinctNames() async throws {
        try await withDiskPersistence { persistence, directory in
            var asides: Set<String> = []
            for round in 0..<3 {
                try Data("garbage \(round)".utf8).write(to: directory.appendingPathComponent("document.json"))
                let error = persistenceError {
                    let _: Document? = try persistence.load(key: "document")
                }
                asides.insert(try #require(error?.movedAsideURL).lastPathComponent)
            }
            #expect(asides.count == 3)
            #expect(Set(fileNames(in: directory)) == asides)
        }
    }

    @Test("the timestamp of a moved-aside file is UTC and sorts by time")
    func timestamp() {
        let stamp = DiskStore.timestamp(Date(timeIntervalSince1970: 1_779_272_102))
        #expect(stamp == "20260520T101502Z")
    }
}
