import Foundation
import PrismStore
import PrismTesting
import Testing

/// What SwiftUI's modifiers bind to, driven as SwiftUI drives them, against a real store: a
/// presentation (`.sheet`, `.alert`), a stack's path (`NavigationStack(path:)`) and a bound
/// field. The SwiftUI glue only wraps these; every read and write it makes is one of these calls.
@MainActor
@Suite("Presentation: what SwiftUI binds to")
struct ViewGlueTests {
    /// The actions a store's reducer saw, in order.
    @MainActor
    final class Heard<Action: Sendable> {
        var actions: [Action] = []
    }

    struct Hearing<State: Sendable, Action: Sendable>: PrismMiddleware {
        let heard: Heard<Action>

        func run(state: State, action: Action) -> PrismEffect<Action> {
            // The store is on the main actor: so is its middleware.
            MainActor.assumeIsolated { heard.actions.append(action) }
            return .none
        }
    }

    typealias Screen = PresentationTests.Screen
    typealias ScreenAction = PresentationTests.ScreenAction

    private func makeScreenStore() -> (PrismStore<Screen, ScreenAction>, Heard<ScreenAction>) {
        let heard = Heard<ScreenAction>()
        let store = PrismStore(
            initialState: Screen(),
            reducer: PresentationTests.ScreenFeature(
                saves: AsyncStream { $0.finish() }, ticks: AsyncStream { $0.finish() }),
            middleware: Hearing<Screen, ScreenAction>(heard: heard))
        return (store, heard)
    }

    @Test("a sheet: presented while its state is there, one store for it, a swipe sends .dismiss once")
    func sheet() throws {
        let (store, heard) = makeScreenStore()
        let editor = store.presentation(state: \.editor, action: ScreenAction.editor)
        #expect(!editor.isPresented)
        #expect(editor.store == nil)
        store.send(.newNote)
        #expect(editor.isPresented)
        let presented = try #require(editor.store)
        #expect(editor.store === presented)
        presented.send(.setText("milk"))
        #expect(store.editor?.text == "milk")
        // The user swipes the sheet away: SwiftUI writes nil to the item binding.
        editor.dismiss()
        #expect(store.editor == nil)
        #expect(store.saved == ["milk"])
        // SwiftUI reports the dismissal again as the sheet goes: not an action.
        editor.dismiss()
        #expect(heard.actions == [.newNote, .editor(.presented(.setText("milk"))), .editor(.dismiss)])
    }

    @Test(
        "an alert: a button sends its action; SwiftUI's dismissal after it leaves the alert the parent shows in answer")
    func alertButton() {
        let (store, heard) = makeScreenStore()
        let alert = store.presentation(state: \.alert, action: ScreenAction.alert)
        store.send(.deleteTapped("taxes"))
        #expect(alert.state?.title == "Delete taxes?")
        #expect(alert.state?.buttons.map(\.label) == ["Delete", "Cancel"])
        // What tapping "Delete" does: the button's action, then isPresented = false.
        alert.buttonTapped(alert.state?.buttons[0].action)
        alert.dismiss()
        #expect(store.notes == ["groceries"])
        // The parent showed another alert in answer: it stays.
        #expect(store.alert?.title == "taxes deleted")
        // The user dismisses that one (the view drew it with a presentation of its own).
        let answer = store.presentation(state: \.alert, action: ScreenAction.alert)
        answer.buttonTapped(answer.state?.buttons.first?.action)
        answer.dismiss()
        #expect(store.alert == nil)
        #expect(
            heard.actions == [
                .deleteTapped("taxes"), .alert(.presented(.confirmDelete("taxes"))), .alert(.dismiss),
            ])
    }

    @Test("an alert's cancel button sends nothing of its own: the dismissal is .dismiss")
    func alertCancel() {
        let (store, heard) = makeScreenStore()
        let alert = store.presentation(state: \.alert, action: ScreenAction.alert)
        store.send(.deleteTapped("taxes"))
        #expect(alert.state?.buttons[1].action == nil)
        alert.buttonTapped(alert.state?.buttons[1].action)
        alert.dismiss()
        #expect(store.alert == nil)
        #expect(store.notes == ["groceries", "taxes"])
        #expect(heard.actions == [.deleteTapped("taxes"), .alert(.dismiss)])
    }

    typealias App = StackTests.App
    typealias AppAction = StackTests.AppAction
    typealias Detail = StackTests.Detail

    private func makeStackStore() -> (PrismStore<App, AppAction>, Heard<AppAction>) {
        let heard = Heard<AppAction>()
        let store = PrismStore(
            initialState: App(),
            reducer: StackTests.AppFeature(ticks: AsyncStream { $0.finish() }),
            middleware: Hearing<App, AppAction>(heard: heard))
        return (store, heard)
    }

    @Test("a stack's path: the back button pops, a link pushes under the next id, an unchanged path sends nothing")
    func stackPath() {
        let (store, heard) = makeStackStore()
        let path = store.stackPath(state: \.path, action: AppAction.path)
        store.send(.open(1))
        store.send(.open(2))
        store.send(.open(3))
        let ids = store.path.ids
        #expect(path.items.map(\.id) == ids)
        #expect(path.store(for: path.items[1])?.item == 2)

        // NavigationStack writes back the same path: nothing happens.
        path.setItems(path.items)
        // A long press on "back" that lands on the first screen.
        path.setItems(Array(path.items.prefix(1)))
        #expect(store.path.map(\.item) == [1])
        #expect(store.popped == [2])
        // NavigationLink(state:) appends a link's entry: pushed under the id the stack gives next.
        path.setItems(path.items + [PrismStackPathItem(pushing: Detail(item: 9))])
        #expect(store.path.map(\.item) == [1, 9])
        #expect(store.path.ids[1].rawValue == 4)
        // Back to the root and two links at once (a pop, then both pushes).
        path.setItems([PrismStackPathItem(pushing: Detail(item: 5)), PrismStackPathItem(pushing: Detail(item: 6))])
        #expect(store.path.map(\.item) == [5, 6])
        #expect(
            heard.actions == [
                .open(1), .open(2), .open(3),
                .path(.popFrom(id: ids[1])),
                .path(.push(id: PrismStackElementID(rawValue: 4), state: Detail(item: 9))),
                .path(.popFrom(id: ids[0])),
                .path(.push(id: PrismStackElementID(rawValue: 5), state: Detail(item: 5))),
                .path(.push(id: PrismStackElementID(rawValue: 6), state: Detail(item: 6))),
            ])
    }

    @Test("a popped screen's entry has no store; links' entries are each their own, equal states or not")
    func stackEntries() {
        let (store, _) = makeStackStore()
        let path = store.stackPath(state: \.path, action: AppAction.path)
        store.send(.open(1))
        let first = path.items[0]
        #expect(path.store(for: first) != nil)
        store.send(.popToRoot)
        #expect(path.store(for: first) == nil)
        #expect(path.items.isEmpty)
        let a = PrismStackPathItem(pushing: Detail(item: 1))
        let b = PrismStackPathItem(pushing: Detail(item: 1))
        #expect(a != b)
        #expect(a.id == nil)
        #expect(path.store(for: a) == nil)
        #expect(PrismStackPathItem<Detail>(element: first.id!) == first)  // swift-format-ignore: NeverForceUnwrap
    }

    struct Settings: Equatable, Sendable {
        var nickname = ""
        var notifications = false
    }

    enum SettingsAction: PrismBindableAction, Equatable {
        case binding(PrismBindingAction<Settings>)

        var binding: PrismBindingAction<Settings>? {
            if case .binding(let action) = self { action } else { nil }
        }
    }

    @Test("a bound field: a change sends .set; SwiftUI writing back the value it read sends nothing")
    func boundField() {
        let heard = Heard<SettingsAction>()
        let store = PrismStore(
            initialState: Settings(), reducer: PrismBindingReducer<Settings, SettingsAction>(),
            middleware: Hearing<Settings, SettingsAction>(heard: heard))
        store.set(\.nickname, to: "Ada")
        store.set(\.nickname, to: "Ada")
        store.set(\.notifications, to: true)
        #expect(store.state == Settings(nickname: "Ada", notifications: true))
        #expect(heard.actions == [.set(\.nickname, "Ada"), .set(\.notifications, true)])
    }
}
