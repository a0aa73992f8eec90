import PrismStore
import PrismTesting
import Testing

/// Fields bound to the store in one line: a text field, a toggle and a picker send binding
/// actions, tested on Linux as actions.
@MainActor
@Suite("Presentation: fields bound to the store")
struct BindingTests {
    enum Theme: String, Equatable, Sendable, CaseIterable { case light, dark }

    struct Settings: Equatable, Sendable {
        var nickname = "ada"
        var notifications = false
        var theme = Theme.light
        var nicknameError: String?
    }

    enum SettingsAction: PrismBindableAction, Equatable {
        case binding(PrismBindingAction<Settings>)
        case restoreDefaults

        var binding: PrismBindingAction<Settings>? {
            if case .binding(let action) = self { action } else { nil }
        }
    }

    struct SettingsFeature: PrismFeature {
        var body: some PrismReducer<Settings, SettingsAction> {
            PrismBindingReducer()
            PrismReduce<Settings, SettingsAction> { state, action in
                switch action {
                case .binding(let binding) where binding.changes(\.nickname):
                    // The field is already set: the feature reacts to the new value.
                    state.nicknameError = state.nickname.isEmpty ? "A nickname cannot be empty." : nil
                    return .none
                case .binding:
                    return .none
                case .restoreDefaults:
                    return .run { send in
                        send(.set(\.theme, .light))
                        send(.set(\.notifications, false))
                    }
                }
            }
        }
    }

    @Test("a text field, a toggle and a picker each send one action; the feature sees the field already set")
    func fields() async {
        let store = PrismTestStore(initialState: Settings(), reducer: SettingsFeature())
        await store.send(.set(\.nickname, "")) {
            $0.nickname = ""
            $0.nicknameError = "A nickname cannot be empty."
        }
        await store.send(.set(\.nickname, "Ada")) {
            $0.nickname = "Ada"
            $0.nicknameError = nil
        }
        await store.send(.set(\.notifications, true)) { $0.notifications = true }
        await store.send(.set(\.theme, .dark)) { $0.theme = .dark }
    }

    @Test("binding actions sent by an effect are received and asserted by field and value")
    func fromAnEffect() async {
        let store = PrismTestStore(
            initialState: Settings(notifications: true, theme: .dark), reducer: SettingsFeature())
        await store.send(.restoreDefaults) { _ in }
        await store.receive(.set(\.theme, .light)) { $0.theme = .light }
        await store.receive(.set(\.notifications, false)) { $0.notifications = false }
        await store.finish()
    }

    @Test("equal when the field and the value are; described by both")
    func equality() {
        let action = PrismBindingAction<Settings>.set(\.nickname, "Ada")
        #expect(action == .set(\.nickname, "Ada"))
        #expect(action != .set(\.nickname, "Bob"))
        #expect(PrismBindingAction<Settings>.set(\.theme, .dark) != .set(\.theme, .light))
        #expect(action.changes(\.nickname) && !action.changes(\.notifications))
        #expect(action.description.contains("nickname") && action.description.contains("\"Ada\""))
    }
}
