import Foundation
import Prism

/// How the app looks: saved in `preferences.json` and shared by every feature that holds it.
struct Preferences: Codable, Equatable, Sendable {
    /// How tasks are drawn.
    var theme = Theme.plain
    /// The order the list shows tasks in.
    var sortOrder = SortOrder.added
}

/// How tasks are drawn on the terminal.
enum Theme: String, Codable, CaseIterable, Sendable {
    /// Text only.
    case plain
    /// Done tasks in green, open ones in bold (ANSI colours).
    case color
}

/// The order the list shows tasks in.
enum SortOrder: String, Codable, CaseIterable, Sendable {
    /// Oldest first: the order they were added in.
    case added
    /// By title, ignoring case.
    case title
    /// Open tasks first, then done ones, each oldest first.
    case openFirst = "open-first"

    /// `items` in this order.
    func sorted(_ items: some Collection<TaskItem>) -> [TaskItem] {
        switch self {
        case .added:
            return Array(items)
        case .title:
            return items.sorted { ($0.title.lowercased(), $0.id) < ($1.title.lowercased(), $1.id) }
        case .openFirst:
            return items.filter { !$0.isDone } + items.filter(\.isDone)
        }
    }
}

/// Who is signed in: saved in `user.json` (the sync token, a secret, is in the keychain).
struct SignedInUser: Codable, Equatable, Sendable {
    /// The name the user signed in with.
    var name: String
}

// MARK: Keys

extension PrismSharedKey where Self == PrismPersistedKey<Preferences> {
    /// The preferences: `preferences.json` in the session's data folder.
    ///
    /// Every state that declares `@PrismShared(.preferences)` holds the same value: the
    /// settings feature changes it, the list draws with it.
    static var preferences: Self {
        @Dependency(\.sampleDataDirectory) var directory
        return .file("preferences", directory: directory)
    }
}

extension PrismSharedKey where Self == PrismPersistedKey<SignedInUser?> {
    /// The signed-in user: `user.json` in the session's data folder.
    static var signedInUser: Self {
        @Dependency(\.sampleDataDirectory) var directory
        return .file("user", directory: directory)
    }
}

/// The folder the session keeps its files in (`--data-dir`): ``TaskSession`` makes the state
/// with its folder in effect, so that the shared values' keys name files there.
private enum SampleDataDirectoryKey: DependencyKey {
    static var liveValue: URL { PrismDiskPersistence.defaultDirectory(applicationName: "prism-sample") }
    static var testValue: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("prism-sample-tests", isDirectory: true)
    }
}

extension DependencyValues {
    /// The session's data folder (see ``TaskSession``).
    var sampleDataDirectory: URL {
        get { self[SampleDataDirectoryKey.self] }
        set { self[SampleDataDirectoryKey.self] = newValue }
    }
}
