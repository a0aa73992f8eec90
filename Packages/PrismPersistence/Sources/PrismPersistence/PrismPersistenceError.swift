import Foundation

/// The error every persistence strategy of this module throws.
///
/// ``code`` says what went wrong; the other properties give the context a user needs: the
/// ``key``, the file (``url``), where an unreadable value was moved (``movedAsideURL``,
/// ``movedAsideKey``), the system error number, the version found, and the error underneath.
/// ``description`` is a sentence that says all of it.
///
/// ```swift
/// do {
///     let state: AppState? = try persistence.load(key: "app_state")
/// } catch let error as PrismPersistenceError where error.code == .corruptFile {
///     print("The saved state was unreadable; it is kept at \(error.movedAsideURL!)")
/// }
/// ```
///
/// Codes are values, not enum cases, so that new ones can be added without breaking a
/// `switch` in your code.
public struct PrismPersistenceError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure a ``PrismPersistenceError`` is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The key is not a plain file name: empty, `.` or `..`, longer than 200 bytes of UTF-8,
        /// or containing `/`, `\`, NUL or another control character. Nothing was read or written.
        public static let invalidKey = Code("invalidKey")
        /// What is stored under the key is not a saved state (not JSON, truncated, empty, binary).
        /// It was moved aside (``PrismPersistenceError/movedAsideURL`` or
        /// ``PrismPersistenceError/movedAsideKey``), never replaced.
        public static let corruptFile = Code("corruptFile")
        /// What is stored under the key is a well-formed saved state of the current version, but
        /// it does not decode as the type asked for (a property was added, renamed or changed
        /// type). It was moved aside, never replaced.
        public static let decodingFailed = Code("decodingFailed")
        /// The state could not be encoded as JSON (a `Double.nan`, a throwing `encode(to:)`).
        /// Nothing was written.
        public static let encodingFailed = Code("encodingFailed")
        /// Reading the stored value failed (permissions, an I/O error); see
        /// ``PrismPersistenceError/errorNumber``.
        public static let readFailed = Code("readFailed")
        /// Writing failed (permissions, an I/O error); see ``PrismPersistenceError/errorNumber``.
        /// What was saved before is intact.
        public static let writeFailed = Code("writeFailed")
        /// The disk, the quota or the file-size limit is full. What was saved before is intact.
        public static let diskFull = Code("diskFull")
        /// The stored value was saved by a newer version of the state's schema (or carries a
        /// version this one cannot know). It was moved aside, never replaced.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// The stored value has an older schema version and no migration from that version is
        /// registered. It was moved aside, never replaced.
        public static let migrationMissing = Code("migrationMissing")
        /// A registered migration threw. The stored value was moved aside, never replaced.
        public static let migrationFailed = Code("migrationFailed")
        /// No Secret Service is running (Linux), no D-Bus session bus is reachable, or the
        /// service has no default keyring.
        public static let secretServiceUnavailable = Code("secretServiceUnavailable")
        /// The system keychain cannot be used by this program (Apple platforms): it lacks the
        /// keychain entitlement (`errSecMissingEntitlement`, -34018: an unsigned command-line
        /// tool on macOS), or no keychain is available. ``PrismPersistenceError/errorNumber`` is
        /// the `OSStatus`.
        public static let keychainUnavailable = Code("keychainUnavailable")
        /// The keychain or keyring collection is locked, and unlocking it was refused or not
        /// possible.
        public static let keychainLocked = Code("keychainLocked")
        /// The keychain (Security framework) or the Secret Service reported another error; see
        /// ``PrismPersistenceError/message``.
        public static let keychainFailed = Code("keychainFailed")
        /// ``PrismPersistMiddleware`` did not save, because the last load of the key failed for a
        /// reason other than "nothing is saved" or "it was unreadable and has been moved aside"
        /// (a locked keychain, a Secret Service that has not started yet, an I/O or permission
        /// error): what is stored may still be there, and saving would destroy it.
        /// ``PrismPersistenceError/underlying`` is that load's error. The middleware saves again
        /// once a load succeeds (``PrismPersistMiddleware/restore()-4jjiv``) or the app allows it to
        /// replace what is stored (``PrismPersistMiddleware/allowOverwrite()``).
        public static let overwriteRefused = Code("overwriteRefused")
        /// A strategy that is not part of this module threw the error in
        /// ``PrismPersistenceError/underlying`` (reported by ``PrismPersistMiddleware``).
        public static let strategyFailed = Code("strategyFailed")

        /// The code's name, for example `corruptFile`.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// The key that was being saved, loaded or cleared.
    public var key: String
    /// What happened, in a sentence, without the context that the other properties add.
    public var message: String
    /// The file involved, for file-based strategies.
    public var url: URL?
    /// Where the unreadable file was moved, when a load moved it aside.
    public var movedAsideURL: URL?
    /// The key the unreadable value was moved to, when a load moved it aside.
    public var movedAsideKey: String?
    /// The system's error number (`errno`, or an `OSStatus` on Apple platforms), when a system
    /// call failed.
    public var errorNumber: Int32?
    /// The schema version found in the stored value, for version and migration errors.
    public var version: Int?
    /// The error underneath: a `DecodingError`, an `EncodingError`, a migration's error.
    public var underlying: (any Error)?

    /// Creates an error; strategies outside this module can throw it too.
    public init(
        code: Code,
        key: String,
        message: String,
        url: URL? = nil,
        movedAsideURL: URL? = nil,
        movedAsideKey: String? = nil,
        errorNumber: Int32? = nil,
        version: Int? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.key = key
        self.message = message
        self.url = url
        self.movedAsideURL = movedAsideURL
        self.movedAsideKey = movedAsideKey
        self.errorNumber = errorNumber
        self.version = version
        self.underlying = underlying
    }

    /// A sentence with the code, the key, the message and every piece of context there is.
    public var description: String {
        var text = "PrismPersistenceError.\(code) for key \"\(key)\": \(message)"
        if let url { text += " File: \(url.path)." }
        if let movedAsideURL {
            text += " The unreadable file was moved aside to \(movedAsideURL.path); nothing was lost."
        } else if let movedAsideKey {
            text += " The unreadable value was moved aside to the key \"\(movedAsideKey)\"; nothing was lost."
        }
        if let errorNumber {
            if code == .readFailed || code == .writeFailed || code == .diskFull {
                text += " (errno \(errorNumber): \(Self.systemMessage(errorNumber)))"
            } else {
                text += " (status \(errorNumber))"
            }
        }
        if let underlying { text += " Underlying error: \(underlying)" }
        return text
    }

    private static func systemMessage(_ number: Int32) -> String {
        guard let text = strerror(number) else { return "unknown" }
        return String(cString: text)
    }
}
