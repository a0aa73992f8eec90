import Dependencies
import Foundation
import PrismTestSupport
import Testing

@testable import PrismStore

@MainActor
@Suite("Dependencies of a store")
struct StoreDependenciesTests {
    struct Note: Equatable, Sendable {
        var id: UUID
        var createdAt: Date
    }

    struct NotesState: Equatable, Sendable {
        var notes: [Note] = []
        var reminders = 0
    }

    enum NotesAction: Sendable {
        case add
        case remind(after: Duration)
        case reminded
    }

    struct NotesFeature: PrismReducer {
        @Dependency(\.uuid) var uuid
        @Dependency(\.date.now) var now
        @Dependency(\.continuousClock) var clock

        func reduce(into state: inout NotesState, action: NotesAction) -> PrismEffect<NotesAction> {
            switch action {
            case .add:
                state.notes.append(Note(id: uuid(), createdAt: now))
                return .none
            case .remind(let delay):
                // `self.clock` is read inside the effect, on the effect's task.
                return .run { send in
                    try await self.clock.sleep(for: delay)
                    send(.reminded)
                }
            case .reminded:
                state.reminders += 1
                return .none
            }
        }
    }

    static let epoch = Date(timeIntervalSince1970: 1_000_000)

    func makeStore(clock: TestClock<Duration>) -> PrismStore<NotesState, NotesAction> {
        PrismStore(initialState: NotesState(), reducer: NotesFeature()) {
            $0.uuid = .incrementing
            $0.date = .constant(Self.epoch)
            $0.continuousClock = clock
        }
    }

    @Test("the reducer reads the store's dependencies, not the live ones")
    func reducerSeesOverrides() {
        let store = makeStore(clock: TestClock())
        store.send(.add)
        store.send(.add)
        #expect(
            store.state.notes == [
                Note(id: UUID(0), createdAt: Self.epoch),
                Note(id: UUID(1), createdAt: Self.epoch),
            ])
    }

    @Test("an effect waits on the store's clock: advancing the test clock runs it, no real time passes")
    func effectsSeeOverrides() async {
        let clock = TestClock()
        let store = makeStore(clock: clock)
        let task = store.send(.remind(after: .seconds(3_600)))
        await clock.advanceOnceAsleep(by: .seconds(3_599))
        #expect(store.state.reminders == 0)
        await clock.advanceOnceAsleep(by: .seconds(1))
        await task.finish()
        #expect(store.state.reminders == 1)
    }

    @Test("a send from another task still reduces with the store's dependencies")
    func sendsFromOtherTasks() async {
        let store = makeStore(clock: TestClock())
        _ = await Task.detached { await store.send(.add) }.value
        #expect(store.state.notes.first?.id == UUID(0))
    }

    @Test("two stores keep their own dependencies")
    func storesDoNotShare() {
        let first = makeStore(clock: TestClock())
        let second = PrismStore(initialState: NotesState(), reducer: NotesFeature()) {
            $0.uuid = .constant(UUID(42))
            $0.date = .constant(Date(timeIntervalSince1970: 0))
        }
        first.send(.add)
        second.send(.add)
        first.send(.add)
        #expect(first.state.notes.map(\.id) == [UUID(0), UUID(1)])
        #expect(second.state.notes == [Note(id: UUID(42), createdAt: Date(timeIntervalSince1970: 0))])
    }

    @Test("a reducer's .dependency modifier sets a value for that reducer alone, over the store's")
    func reducerModifier() {
        let epoch = Date(timeIntervalSince1970: 0)
        let later = Date(timeIntervalSince1970: 1_000)
        let store = PrismStore(
            initialState: NotesState(),
            reducer: NotesFeature().dependency(\.date, .constant(later)).dependency(\.uuid, .incrementing)
        ) {
            $0.date = .constant(epoch)
        }
        store.send(.add)
        store.send(.add)
        // The modifier's date wins over the store's; UUIDs count from zero.
        #expect(store.state.notes.map(\.createdAt) == [later, later])
        #expect(store.state.notes.map { $0.id.uuidString.suffix(2) } == ["00", "01"])
    }
}
