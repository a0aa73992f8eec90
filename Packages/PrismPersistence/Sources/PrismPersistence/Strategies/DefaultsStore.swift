import Foundation

/// A `UserDefaults` suite, each value a `Data` of JSON, synchronized after every change.
///
/// `UserDefaults` is not `Sendable` on every platform, so the store keeps the suite's name and
/// opens the suite for each call (it is a handle onto a shared, locked cache).
struct DefaultsStore: RawStore {
    let suiteName: String?

    init(suiteName: String?) {
        if let suiteName {
            precondition(
                UserDefaults(suiteName: suiteName) != nil,
                """
                PrismUserDefaultsPersistence: UserDefaults refuses the suite name "\(suiteName)" (the \
                app's own bundle identifier and NSGlobalDomain are not suites). Pass nil for the standard \
                defaults, or another name.
                """
            )
        }
        self.suiteName = suiteName
    }

    private func defaults() -> UserDefaults {
        guard let suiteName else { return UserDefaults.standard }
        // Checked in init; the name cannot have become invalid since.
        return UserDefaults(suiteName: suiteName)!
    }

    func location(of key: String) -> URL? {
        nil
    }

    func read(key: String) throws -> Data? {
        guard let object = defaults().object(forKey: key) else { return nil }
        guard let data = object as? Data else {
            throw UnreadableValue(message: "The stored value is a \(type(of: object)), not the Data of a saved state.")
        }
        return data
    }

    func write(_ data: Data, key: String) throws {
        let defaults = defaults()
        defaults.set(data, forKey: key)
        try synchronize(defaults, key: key)
    }

    func remove(key: String) throws {
        let defaults = defaults()
        guard defaults.object(forKey: key) != nil else { return }
        defaults.removeObject(forKey: key)
        try synchronize(defaults, key: key)
    }

    func moveAside(key: String, suffix: String) throws -> MovedAside {
        let defaults = defaults()
        guard let object = defaults.object(forKey: key) else {
            throw PrismPersistenceError(
                code: .writeFailed, key: key, message: "The value vanished before it was moved aside.")
        }
        let target = freeName(aside: key, suffix: suffix) { defaults.object(forKey: $0) != nil }
        defaults.set(object, forKey: target)
        defaults.removeObject(forKey: key)
        try synchronize(defaults, key: key)
        return MovedAside(key: target, url: nil)
    }

    /// Writes the suite to its file now: on Linux nothing else does before the process exits,
    /// and another process reads the file.
    private func synchronize(_ defaults: UserDefaults, key: String) throws {
        guard defaults.synchronize() else {
            throw PrismPersistenceError(
                code: .writeFailed,
                key: key,
                message: """
                    UserDefaults could not write the \(suiteName.map { "suite \"\($0)\"" } ?? "standard defaults") \
                    to its file (synchronize() failed); the change is in this process's memory only.
                    """
            )
        }
    }
}
