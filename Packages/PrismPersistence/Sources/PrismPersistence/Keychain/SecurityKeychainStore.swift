#if canImport(Security)
import Foundation
import Security

/// Apple's keychain: each value a generic password with the service and the key as account.
///
/// Every query names the data protection keychain (`kSecUseDataProtectionKeychain`), the one iOS
/// has and the one Apple recommends on macOS: there `kSecAttrAccessible` applies and items belong
/// to the app's identity, not to a path; without it, macOS uses the legacy file-based keychain,
/// where another build of the same program meets an access prompt. The data protection keychain
/// needs a signed app with an application identifier: an unsigned command-line tool gets
/// `errSecMissingEntitlement`, reported as `keychainUnavailable`. An item an earlier version saved
/// in macOS's legacy keychain is moved into the data protection keychain when it is first read.
///
/// A save updates an existing item in one `SecItemUpdate` call and adds one only when there is
/// none: never a delete followed by an add, which would lose the secret if the add failed.
struct SecurityKeychainStore: RawStore {
    let service: String

    func location(of key: String) -> URL? {
        nil
    }

    private func baseQuery(_ key: String, dataProtection: Bool = true) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: key,
            kSecUseDataProtectionKeychain as String: dataProtection,
        ]
    }

    func read(key: String) throws -> Data? {
        if let data = try copyData(key: key, dataProtection: true) { return data }
        #if os(macOS)
        // An item an earlier Prism saved in macOS's legacy file-based keychain: read it, move it
        // into the data protection keychain, and remove the old one only once the move is saved.
        guard let legacy = try? copyData(key: key, dataProtection: false) else { return nil }
        if (try? write(legacy, key: key)) != nil {
            _ = SecItemDelete(baseQuery(key, dataProtection: false) as CFDictionary)
        }
        return legacy
        #else
        return nil
        #endif
    }

    /// The item's data in one of the two macOS keychains (the same one elsewhere), nil if none.
    private func copyData(key: String, dataProtection: Bool) throws -> Data? {
        var query = baseQuery(key, dataProtection: dataProtection)
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
        #if os(macOS)
        // And the item an earlier version left in the legacy keychain, if any: cleared is cleared.
        _ = SecItemDelete(baseQuery(key, dataProtection: false) as CFDictionary)
        #endif
        let status = SecItemDelete(baseQuery(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw Self.failure(status, key: key, doing: "delete the keychain item")
        }
    }

    func moveAside(key: String, suffix: String) throws -> MovedAside {
        try copyAside(
            key: key, suffix: suffix, vanished: "The keychain item vanished before it was moved aside.",
            code: .keychainFailed)
    }

    private static func failure(_ status: OSStatus, key: String, doing what: String) -> PrismPersistenceError {
        let text = (SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)"
        let code: PrismPersistenceError.Code
        var explanation = ""
        switch status {
        case errSecInteractionNotAllowed, errSecAuthFailed, errSecUserCanceled:
            code = .keychainLocked
        case errSecMissingEntitlement:
            code = .keychainUnavailable
            explanation =
                " This program has no keychain entitlement: the data protection keychain serves only a signed app"
                + " with an application identifier (a command-line tool run unsigned cannot use it)."
        case errSecNotAvailable, errSecNoSuchKeychain:
            code = .keychainUnavailable
        default:
            code = .keychainFailed
        }
        return PrismPersistenceError(
            code: code,
            key: key,
            message: "Could not \(what): \(text).\(explanation)",
            errorNumber: status
        )
    }
}
#endif
