import Foundation
import Testing

@testable import PrismPersistence

@Suite("Disk persistence")
struct DiskPersistenceTests {
    struct Profile: Codable, Sendable, Equatable {
        var name: String
        var tags: [String]
        var score: Double?
    }

    /// Expects `directory` to hold one file, profile.json, with a profile named `name` in it.
    func expectOnlyProfile(
        named name: String,
        in directory: URL,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let loaded: Profile? = try PrismDiskPersistence(directory: directory).load(key: "profile")
        #expect(loaded?.name == name, sourceLocation: sourceLocation)
        #expect(fileNames(in: directory) == ["profile.json"], sourceLocation: sourceLocation)
    }

    @Test("a saved state loads back equal")
    func roundTrip() async throws {
        try await withDiskPersistence { persistence, _ in
            let profile = Profile(name: "Ada", tags: ["math", "engines"], score: 9.5)
            try persistence.save(profile, key: "profile")
            let loaded: Profile? = try persistence.load(key: "profile")
            #expect(loaded == profile)
        }
    }

    @Test("loading a key that was never saved returns nil, even before the folder exists")
    func missingKey() async throws {
        try await withTemporaryDirectory { directory in
            let persistence = PrismDiskPersistence(directory: directory.appendingPathComponent("not-yet"))
            let loaded: Profile? = try persistence.load(key: "profile")
            #expect(loaded == nil)
        }
    }

    @Test("the first save creates the folder and the folders above it")
    func createsDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let nested = directory.appendingPathComponent("a/b/c", isDirectory: true)
            let persistence = PrismDiskPersistence(directory: nested)
            try persistence.save(Profile(name: "Grace", tags: [], score: nil), key: "profile")
            #expect(fileNames(in: nested) == ["profile.json"])
        }
    }

    @Test("a save replaces the previous state and leaves no temporary file behind")
    func replaces() async throws {
        try await withDiskPersistence { persistence, directory in
            for index in 0..<20 {
                try persistence.save(Profile(name: "v\(index)", tags: [], score: Double(index)), key: "profile")
            }
            try expectOnlyProfile(named: "v19", in: directory)
        }
    }

    @Test("the file is a JSON envelope with the schema version, readable by the user only")
    func fileFormat() async throws {
        try await withTemporaryDirectory { directory in
            try PrismDiskPersistence(directory: directory).save(
                Profile(name: "Ada", tags: [], score: nil), key: "profile")
            let url = directory.appendingPathComponent("profile.json")
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
            #expect(object?["version"] as? Int == 1)
            #expect((object?["state"] as? [String: Any])?["name"] as? String == "Ada")
            let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
            #expect(permissions == 0o600)
        }
    }

    @Test("clear removes the file, and clearing a key that has none is not an error")
    func clear() async throws {
        try await withDiskPersistence { persistence, directory in
            try persistence.save(Profile(name: "Ada", tags: [], score: nil), key: "profile")
            try expectClearing("profile", of: Profile.self, in: persistence)
            #expect(fileNames(in: directory).isEmpty)
            try PrismDiskPersistence(directory: directory.appendingPathComponent("missing")).clear(key: "profile")
        }
    }

    @Test("plain values save and load too: numbers, strings, arrays")
    func plainValues() async throws {
        try await withDiskPersistence { persistence, _ in
            try persistence.save(42, key: "answer")
            try persistence.save("hello", key: "greeting")
            try persistence.save([1, 2, 3], key: "list")
            #expect(try persistence.load(key: "answer") == 42)
            #expect(try persistence.load(key: "greeting") == "hello")
            #expect(try persistence.load(key: "list") == [1, 2, 3])
        }
    }

    @Test("a state that cannot be encoded throws encodingFailed and writes nothing")
    func encodingFailure() async throws {
        try await withDiskPersistence { persistence, directory in
            try persistence.save(Profile(name: "kept", tags: [], score: 1), key: "profile")
            let error = persistenceError {
                try persistence.save(Profile(name: "nan", tags: [], score: .nan), key: "profile")
            }
            #expect(error?.code == .encodingFailed)
            #expect(error?.underlying is EncodingError)
            try expectOnlyProfile(named: "kept", in: directory)
        }
    }

    @Test("a folder where the file should be is a read error, not a missing state")
    func directoryInTheWay() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("profile.json"),
                withIntermediateDirectories: true
            )
            let error = persistenceError {
                let _: Profile? = try PrismDiskPersistence(directory: directory).load(key: "profile")
            }
            #expect(error?.code == .readFailed)
            #expect(error?.errorNumber == EISDIR)
        }
    }

    @Test(
        "the default folder is $XDG_DATA_HOME/<app>, else ~/.local/share/<app>",
        arguments: [
            (["XDG_DATA_HOME": "/data/home", "HOME": "/home/ada"], "notes", "/data/home/notes"),
            (["HOME": "/home/ada"], "notes", "/home/ada/.local/share/notes"),
            // The XDG specification says a relative path is to be ignored.
            (["XDG_DATA_HOME": "relative/data", "HOME": "/home/ada"], "notes", "/home/ada/.local/share/notes"),
            // A name that is not a safe folder name is made one.
            (["HOME": "/home/ada"], "a/b\u{1}", "/home/ada/.local/share/a_b_"),
        ])
    func defaultDirectory(environment: [String: String], applicationName: String, expected: String) {
        let folder = PrismDiskPersistence.dataDirectory(environment: environment, applicationName: applicationName)
        #expect(folder.path == expected)
    }

    @Test("an application name that names no folder of its own gives PrismApp")
    func folderNameOfDots() {
        #expect(PrismDiskPersistence.folderName("..") == "PrismApp")
    }

    @Test("on Apple platforms each program has a folder of its own in Application Support, never Documents itself")
    func appleFolderIsPerApplication() {
        let support = URL(fileURLWithPath: "/Users/ada/Library/Application Support", isDirectory: true)
        let notes = PrismDiskPersistence.appDirectory(in: support, "com.example.notes")
        let tool = PrismDiskPersistence.appDirectory(in: support, "notes-cli")
        #expect(notes.path == "/Users/ada/Library/Application Support/com.example.notes")
        #expect(notes != tool)  // equal keys of two programs never meet
        #expect(PrismDiskPersistence.appDirectory(in: support, "a/b").lastPathComponent == "a_b")
        #if canImport(Darwin)
        let folder = PrismDiskPersistence.defaultDirectory(applicationName: "com.example.notes")
        #expect(folder.lastPathComponent == "com.example.notes")
        #expect(!folder.path.contains("/Documents"))
        #endif
    }

    #if os(Linux)
    @Test("init() saves under the XDG data folder, in a folder named after the executable")
    func defaultInit() {
        let environment = ProcessInfo.processInfo.environment
        let expected = PrismDiskPersistence.dataDirectory(
            environment: environment,
            applicationName: PrismDiskPersistence.folderName(ProcessInfo.processInfo.processName)
        )
        #expect(PrismDiskPersistence().directory.standardizedFileURL.path == expected.standardizedFileURL.path)
        #expect(
            PrismDiskPersistence.defaultDirectory(applicationName: "com.example.notes").lastPathComponent
                == "com.example.notes")
    }
    #endif
}
