import Foundation
import PrismStore
import PrismTesting
import Testing

/// Presentation as state, tested exhaustively with a test store: an alert whose buttons send
/// actions, a presented editor that dismisses itself, and each hostile order (an action for a
/// dismissed child, a dismissal during an effect).
@MainActor
@Suite("Presentation: alerts and presented features")
struct PresentationTests {
    struct Editor: Equatable, Sendable, Codable {
        var text = ""
        var ticks = 0
    }

    enum EditorAction: Equatable, Sendable {
        case setText(String)
        case save
        case saved
        case startTicking
        case tick
    }

    struct EditorFeature: PrismReducer {
        let saves: AsyncStream<Void>
        let ticks: AsyncStream<Void>
        @Dependency(\.dismiss) var dismiss

        func reduce(into state: inout Editor, action: EditorAction) -> PrismEffect<EditorAction> {
            switch action {
            case .setText(let text):
                state.text = text
                return .none
            case .save:
                let saves = self.saves
                return .run { send in
                    for await _ in saves {
                        send(.saved)
                        return
                    }
                }
            case .saved:
                return .run { [dismiss] _ in await dismiss() }
            case .startTicking:
                let ticks = self.ticks
                return .run { send in
                    for await _ in ticks { send(.tick) }
                }
            case .tick:
                state.ticks += 1
                return .none
            }
        }
    }

    enum AlertAction: Hashable, Sendable, Codable {
        case confirmDelete(String)
    }

    struct Screen: Equatable, Sendable {
        var notes = ["groceries", "taxes"]
        var editor: Editor?
        var alert: PrismAlertState<AlertAction>?
        var saved: [String] = []
    }

    enum ScreenAction: Equatable, Sendable {
        case newNote
        case closeEditor
        case editor(PrismPresentationAction<EditorAction>)
        case deleteTapped(String)
        case alert(PrismPresentationAction<AlertAction>)

        var editor: PrismPresentationAction<EditorAction>? {
            if case .editor(let action) = self { action } else { nil }
        }
        var alert: PrismPresentationAction<AlertAction>? {
            if case .alert(let action) = self { action } else { nil }
        }
    }

    struct ScreenFeature: PrismFeature {
        let saves: AsyncStream<Void>
        let ticks: AsyncStream<Void>

        var body: some PrismReducer<Screen, ScreenAction> {
            PrismReduce<Screen, ScreenAction> { state, action in
                switch action {
                case .newNote:
                    state.editor = Editor()
                case .closeEditor:
                    state.editor = nil
                case .editor(.dismiss):
                    // The parent hears the dismissal with the editor still there.
                    if let text = state.editor?.text { state.saved.append(text) }
                case .editor:
                    break
                case .deleteTapped(let note):
                    state.alert = PrismAlertState(
                        title: "Delete \(note)?", message: "It cannot be undone.",
                        buttons: [.init("Delete", role: .destructive, action: .confirmDelete(note)), .cancel()])
                case .alert(.presented(.confirmDelete(let note))):
                    state.notes.removeAll { $0 == note }
                    // Another alert, at once: the first is already gone.
                    state.alert = PrismAlertState(title: "\(note) deleted")
                case .alert:
                    break
                }
                return .none
            }
            .presents(\.editor, action: ScreenAction.editor, toPresentationAction: \.editor) {
                EditorFeature(saves: saves, ticks: ticks)
            }
            .presents(\.alert, action: ScreenAction.alert, toPresentationAction: \.alert)
        }
    }

    private func makeStore() -> (
        PrismTestStore<Screen, ScreenAction>, saves: AsyncStream<Void>.Continuation,
        ticks: AsyncStream<Void>.Continuation
    ) {
        let (saves, saveContinuation) = AsyncStream<Void>.makeStream()
        let (ticks, tickContinuation) = AsyncStream<Void>.makeStream()
        let store = PrismTestStore(initialState: Screen(), reducer: ScreenFeature(saves: saves, ticks: ticks))
        return (store, saveContinuation, tickContinuation)
    }

    @Test("an alert's button sends its action; the alert is gone before the parent sees it, which shows another")
    func alertButtons() async {
        let (store, _, _) = makeStore()
        await store.send(.deleteTapped("taxes")) {
            $0.alert = PrismAlertState(
                title: "Delete taxes?", message: "It cannot be undone.",
                buttons: [.init("Delete", role: .destructive, action: .confirmDelete("taxes")), .cancel()])
        }
        await store.send(.alert(.presented(.confirmDelete("taxes")))) {
            $0.notes = ["groceries"]
            $0.alert = PrismAlertState(title: "taxes deleted")
        }
        await store.send(.alert(.dismiss)) {
            $0.alert = nil
        }
    }

    @Test("a presented editor saves, then dismisses itself; the parent hears .dismiss while the editor is still there")
    func childDismissesItself() async {
        let (store, saves, _) = makeStore()
        await store.send(.newNote) { $0.editor = Editor() }
        await store.send(.editor(.presented(.setText("call mom")))) { $0.editor?.text = "call mom" }
        await store.send(.editor(.presented(.save))) { _ in }
        saves.yield()
        await store.receive(.editor(.presented(.saved)))
        await store.receive(.editor(.dismiss)) {
            $0.saved = ["call mom"]
            $0.editor = nil
        }
        await store.finish()
    }

    @Test("dismissing the editor during its effect cancels the effect: nothing arrives after")
    func dismissDuringEffect() async {
        let (store, _, ticks) = makeStore()
        await store.send(.newNote) { $0.editor = Editor() }
        await store.send(.editor(.presented(.startTicking))) { _ in }
        ticks.yield()
        await store.receive(.editor(.presented(.tick))) { $0.editor?.ticks = 1 }
        await store.send(.closeEditor) { $0.editor = nil }
        // The ticking effect was cancelled with the editor: finish sees no effect running.
        ticks.yield()
        await store.finish()
    }

    @Test("an action for a dismissed child is dropped with a warning naming it, never a crash")
    func actionAfterDismissal() async {
        let (store, _, _) = makeStore()
        await withKnownIssue {
            await store.send(.editor(.presented(.setText("late")))) { _ in }
        } matching: { issue in
            issue.description.contains("received setText(\"late\") after it was dismissed")
        }
        #expect(store.state.editor == nil)
    }

    @Test("dismiss() from a feature that is not presented does nothing and says so")
    func dismissOutsidePresentation() async {
        let (saves, continuation) = AsyncStream<Void>.makeStream()
        let (ticks, _) = AsyncStream<Void>.makeStream()
        let store = PrismTestStore(initialState: Editor(), reducer: EditorFeature(saves: saves, ticks: ticks))
        await withKnownIssue {
            await store.send(.saved) { _ in }
            await store.finish()
        } matching: { issue in
            issue.description.contains("dismiss() was called from an effect of a feature that is not presented")
        }
        continuation.finish()
    }

    @Test("alert state is a value: equal, hashed, and saved and read back as JSON")
    func alertStateIsAValue() throws {
        let alert = PrismAlertState<AlertAction>(
            title: "Delete taxes?", buttons: [.init("Delete", role: .destructive, action: .confirmDelete("taxes"))])
        let json = try JSONEncoder().encode(alert)
        #expect(try JSONDecoder().decode(PrismAlertState<AlertAction>.self, from: json) == alert)
        let dialog = PrismConfirmationDialogState<AlertAction>(
            title: "Share", titleVisibility: .visible, buttons: [.cancel()])
        #expect(try JSONDecoder().decode(type(of: dialog), from: JSONEncoder().encode(dialog)) == dialog)
        #expect(Set([alert, alert]).count == 1)
        #expect(alert.map { _ in 1 }.buttons.first?.action == 1)
    }
}
