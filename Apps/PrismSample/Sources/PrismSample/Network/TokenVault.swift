import Foundation
import Prism

/// The sync token, kept in the system keychain with `PrismKeychainPersistence` (the Secret
/// Service through libsecret on Linux, the Security framework on Apple platforms).
///
/// A token is a secret: it never goes to the disk strategy's JSON files.
struct TokenVault: Sendable {
    /// What the keychain holds under the token's key.
    struct Token: Codable, Equatable, Sendable {
        /// The bearer token sent to the server.
        var value: String
        /// When it was made.
        var created: Date
    }

    /// What ``token()`` found.
    enum Lookup: Sendable {
        /// A token saved by an earlier run.
        case stored(Token)
        /// A token made now and saved for the next runs.
        case created(Token)
        /// No keychain here (no Secret Service, or a locked one), and why.
        case unavailable(String)
    }

    /// The keychain strategy, under the sample's own service name.
    let keychain: PrismKeychainPersistence
    /// The key the token is saved under.
    let key = "sync-token"

    /// A vault in the keychain service `service`.
    init(service: String = "prism-sample") {
        keychain = PrismKeychainPersistence(service: service)
    }

    /// The saved token, or a new one saved now, or why the keychain cannot be used.
    func token() -> Lookup {
        do {
            if let token: Token = try keychain.load(key: key) { return .stored(token) }
            let token = Token(value: "demo-" + UUID().uuidString.prefix(8).lowercased(), created: Date())
            try keychain.save(token, key: key)
            return .created(token)
        } catch {
            return .unavailable(Self.describe(error))
        }
    }

    /// Removes the token from the keychain (does nothing when there is none).
    func forget() throws {
        try keychain.clear(key: key)
    }

    /// A keychain error in a sentence.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? PrismPersistenceError else { return "\(error)" }
        switch error.code {
        case .secretServiceUnavailable: return "no Secret Service (such as gnome-keyring) is running"
        case .keychainUnavailable: return "this build cannot use the system keychain (\(error.message))"
        case .keychainLocked: return "the keychain is locked"
        default: return "\(error.code): \(error.message)"
        }
    }
}
