#if canImport(Security)
import Foundation
import Security

#if os(macOS)
import LocalAuthentication
#endif

/// Apple's keychain: each value a generic password with the service and the key as account.
///
/// Every query names the data protection keychain (`kSecUseDataProtectionKeychain`), the one iOS
/// has and the one Apple recommends on macOS: there `kSecAttrAccessible` applies and items belong
/// to the app's identity, not to a path; without it, macOS uses the legacy file-based keychain,
/// where another build of the same program meets an access prompt. The data protection keychain
/// needs a signed app with an application identifier: an unsigned command-line tool gets
/// `errSecMissingEntitlement`, reported as `keychainUnavailable`, whose message names the way out:
/// `macOSKeychain: .fileBased` (every query then names the legacy keychain, prompts allowed, as
/// earlier versions of Prism did). In the data protection keychain, a read that finds nothing
/// looks for an item an earlier version saved in the legacy keychain, and moves it over; that
/// look never shows a prompt (a locked login keychain, or an item another build of the program
/// made, counts as nothing found there, and the item stays for a later read).
///
/// A save updates an existing item in one `SecItemUpdate` call and adds one only when there is
/// none: never a delete followed by an add, which would lose the secret if the add failed.
struct SecurityKeychainStore: RawStore {
    let service: String
    /// macOS only: every query names the legacy file-based keychain (`macOSKeychain: .fileBased`).
    let fileBased: Bool

    init(service: String, fileBased: Bool = false) {
        self.service = service
        self.fileBased = fileBased
    }

    func location(of key: String) -> URL? {
        nil
    }

    /// The query for `key`'s item: in the keychain this store uses, or (`legacyProbe`) in macOS's
    /// legacy keychain, where a store of the data protection keychain looks without a prompt.
    private func baseQuery(_ key: String, legacyProbe: Bool = false) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: key,
            kSecUseDataProtectionKeychain as String: !(fileBased || legacyProbe),
        ]
        #if os(macOS)
        if legacyProbe {
            // Fail with errSecInteractionNotAllowed rather than ask to unlock the login keychain
            // or to let this build read an item another build made.
            let context = LAContext()
            context.interactionNotAllowed = true
            query[kSecUseAuthenticationContext as String] = context
        }
        #endif
        return query
    }

    func read(key: String) throws -> Data? {
        if let data = try copyData(baseQuery(key), key: key) { return data }
        #if os(macOS)
        guard !fileBased else { return nil }
        // An item an earlier Prism saved in macOS's legacy file-based keychain: read it, move it
        // into the data protection keychain, and remove the old one only once the move is saved.
        guard let legacy = try? copyData(baseQuery(key, legacyProbe: true), key: key) else { return nil }
        if (try? write(legacy, key: key)) != nil {
            _ = SecItemDelete(baseQuery(key, legacyProbe: true) as CFDictionary)
        }
        return legacy
        #else
        return nil
        #endif
    }

    /// The data of the item `query` (for `key`) finds, nil if there is none.
    private func copyData(_ query: [String: Any], key: String) throws -> Data? {
        var query = query
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
            // The legacy keychain has no such classes (macOS applies them to the other only).
            if !fileBased { item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock }
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
        if !fileBased { _ = SecItemDelete(baseQuery(key, legacyProbe: true) as CFDictionary) }
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
                + " An unsigned tool on macOS can pass `macOSKeychain: .fileBased` to PrismKeychainPersistence:"
                + " the login keychain, where Prism 0.1 saved, with its access prompts."
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
