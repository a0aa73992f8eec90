import Prism

/// The state of the settings feature: the preferences and who is signed in, both shared values.
///
/// Nothing here is saved with the task list: each shared value saves itself, in its own file,
/// and every other feature that holds it (the sync feature holds the user) sees a change at
/// once.
///
/// `Codable` as Swift writes it: each shared value is written with its key, and decoding finds
/// the key's value again (PrismStore's `PrismShared.init(from:)`).
struct SettingsState: Codable, Equatable, Sendable {
    /// How the app looks (`preferences.json`).
    @PrismShared(.preferences) var preferences = Preferences()
    /// Who is signed in, or nil (`user.json`).
    @PrismShared(.signedInUser) var user: SignedInUser? = nil
}

/// What the user can change in the settings.
enum SettingsAction: Codable, Equatable, Sendable {
    /// Draws tasks with this theme.
    case setTheme(Theme)
    /// Lists tasks in this order.
    case setSortOrder(SortOrder)
    /// Signs in as the user with this name.
    case signIn(name: String)
    /// Signs out.
    case signOut
}

/// The settings feature: it changes the shared values, and nothing else.
struct SettingsFeature: PrismReducer {
    func reduce(into state: inout SettingsState, action: SettingsAction) -> PrismEffect<SettingsAction> {
        switch action {
        case .setTheme(let theme):
            state.preferences.theme = theme
        case .setSortOrder(let order):
            state.preferences.sortOrder = order
        case .signIn(let name):
            state.user = SignedInUser(name: name)
        case .signOut:
            state.user = nil
        }
        return .none
    }
}
