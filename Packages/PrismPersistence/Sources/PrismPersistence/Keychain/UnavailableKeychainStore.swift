#if !canImport(Security) && !(canImport(Glibc) || canImport(Musl))
import Foundation

/// A platform with neither Apple's keychain nor libsecret: every call throws.
struct UnavailableKeychainStore: RawStore {
    let service: String

    func location(of key: String) -> URL? {
        nil
    }

    private func unavailable(_ key: String) -> PrismPersistenceError {
        PrismPersistenceError(
            code: .keychainUnavailable,
            key: key,
            message: "This platform has no keychain that PrismKeychainPersistence can use."
        )
    }

    func read(key: String) throws -> Data? { throw unavailable(key) }
    func write(_ data: Data, key: String) throws { throw unavailable(key) }
    func remove(key: String) throws { throw unavailable(key) }
    func moveAside(key: String, suffix: String) throws -> MovedAside { throw unavailable(key) }
}
#endif
