import Foundation
import Testing

@testable import PrismPersistence

@Suite("UserDefaults persistence")
struct UserDefaultsPersistenceTests {
    @Test("a saved state loads back equal, and clear removes it")
    func roundTrip() throws {
        try withDefaultsSuite { suite in
            let persistence = PrismUserDefaultsPersistence(suiteName: suite)
            #expect(persistence.suiteName == suite)
            let settings = Settings(theme: "dark", fontSize: 14)
            try persistence.save(settings, key: "user_settings")
            #expect(try persistence.load(key: "user_settings") == settings)
            try persistence.save(Settings(theme: "light", fontSize: 12), key: "user_settings")
            #expect(try persistence.load(key: "user_settings") == Settings(theme: "light", fontSize: 12))
            try expectClearing("user_settings", of: Settings.self, in: persistence)
        }
    }

    @Test("the value is JSON Data of a versioned envelope")
    func storedAsData() throws {
        try withDefaultsSuite { suite in
            try PrismUserDefaultsPersistence(suiteName: suite).save(Settings(theme: "dark", fontSize: 14), key: "s")
            let data = try #require(UserDefaults(suiteName: suite)?.data(forKey: "s"))
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(object?["version"] as? Int == 1)
        }
    }

    @Test("another process sees a save as soon as it returns")
    func visibleToAnotherProcess() async throws {
        try await withDefaultsSuite { suite in
            try PrismUserDefaultsPersistence(suiteName: suite).save(
                Settings(theme: "dark", fontSize: 17), key: "user_settings")
            let child = try await TestHelper.run(["defaults-load", suite, "user_settings"])
            #expect(child.result == "loaded theme=dark fontSize=17", "\(child.output)\(child.errors)")
        }
    }

    @Test("a save by another process is on disk when that process exits")
    func savedByAnotherProcess() async throws {
        try await withDefaultsSuite { suite in
            let child = try await TestHelper.run(["defaults-save", suite, "user_settings", "solarized", "13"])
            #expect(child.result == "saved", "\(child.output)\(child.errors)")
            let loaded: Settings? = try PrismUserDefaultsPersistence(suiteName: suite).load(key: "user_settings")
            #expect(loaded == Settings(theme: "solarized", fontSize: 13))
        }
    }

    @Test("a value that is not a saved state is moved to another key and reported")
    func corruptValue() throws {
        try withDefaultsSuite { suite in
            let defaults = try #require(UserDefaults(suiteName: suite))
            defaults.set("not data", forKey: "text")
            defaults.set(Data("{\"truncated".utf8), forKey: "truncated")
            let persistence = PrismUserDefaultsPersistence(suiteName: suite)

            let textError = persistenceError {
                let _: Settings? = try persistence.load(key: "text")
            }
            #expect(textError?.code == .corruptFile)
            let textAside = try #require(textError?.movedAsideKey)
            #expect(textAside.hasPrefix("text.corrupt-"))
            #expect(defaults.string(forKey: textAside) == "not data")
            #expect(defaults.object(forKey: "text") == nil)

            let truncatedError = persistenceError {
                let _: Settings? = try persistence.load(key: "truncated")
            }
            #expect(truncatedError?.code == .corruptFile)
            let truncatedAside = try #require(truncatedError?.movedAsideKey)
            #expect(defaults.data(forKey: truncatedAside) == Data("{\"truncated".utf8))
        }
    }
}
