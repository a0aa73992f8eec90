#if canImport(Security)
import Foundation
import Security

/// Apple's keychain: each value a generic password with the service and the key as account.
///
/// A save updates an existing item in one `SecItemUpdate` call and adds one only when there is
/// none: never a delete followed by an add, which would lose the secret if the add failed.
struct SecurityKeychainStore: RawStore {
    let service: String

    func location(of key: String) -> URL? {
        nil
    }

    private func baseQuery(_ key: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: key,
        ]
    }

    func read(key: String) throws -> Data? {
        var query = baseQuery(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw Self.failure(status, key: key, doing: "read the keychain item") }
        guard let data = result as? Data else {
            throw UnreadableValue(message: "The keychain item has no data.")
        }
        return data
    }

    func write(_ data: Data, key: String) throws {
        let changes = [kSecValueData as String: data] as CFDictionary
        var status = SecItemUpdate(baseQuery(key) as CFDictionary, changes)
        if status == errSecItemNotFound {
            var item = baseQuery(key)
            item[kSecValueData as String] = data
            item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
            status = SecItemAdd(item as CFDictionary, nil)
            if status == errSecDuplicateItem {
                // Added by another thread or process meanwhile: update that one.
                status = SecItemUpdate(baseQuery(key) as CFDictionary, changes)
            }
        }
        guard status == errSecSuccess else { throw Self.failure(status, key: key, doing: "save the keychain item") }
    }

    func remove(key: String) throws {
        let status = SecItemDelete(baseQuery(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw Self.failure(status, key: key, doing: "delete the keychain item")
        }
    }

    func moveAside(key: String, suffix: String) throws -> MovedAside {
        guard let data = try read(key: key) else {
            throw PrismPersistenceError(
                code: .keychainFailed,
                key: key,
                message: "The keychain item vanished before it was moved aside."
            )
        }
        var attempt = 1
        var target = "\(key).\(suffix)"
        while try read(key: target) != nil {
            attempt += 1
            target = "\(key).\(suffix)-\(attempt)"
        }
        try write(data, key: target)
        try remove(key: key)
        return MovedAside(key: target, url: nil)
    }

    private static func failure(_ status: OSStatus, key: String, doing what: String) -> PrismPersistenceError {
        let text = (SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)"
        let code: PrismPersistenceError.Code
        switch status {
        case errSecInteractionNotAllowed, errSecAuthFailed, errSecUserCanceled:
            code = .keychainLocked
        case errSecNotAvailable, errSecNoSuchKeychain, errSecMissingEntitlement:
            code = .secretServiceUnavailable
        default:
            code = .keychainFailed
        }
        return PrismPersistenceError(
            code: code,
            key: key,
            message: "Could not \(what): \(text).",
            errorNumber: status
        )
    }
}
#endif
