import Dispatch
import Foundation
import Observation
import Testing

@testable import PrismStore

@MainActor
@Suite("Shared state")
struct SharedStateTests {
    enum Theme: String, Codable, Sendable { case light, dark }

    struct Settings: Equatable, Codable, Sendable {
        var theme = Theme.light
        var fontSize = 14
    }

    struct SettingsFeatureState: Equatable, Sendable {
        @PrismShared(.inMemory("settings")) var settings = Settings()
        var toggles = 0
    }

    struct ProfileFeatureState: Equatable, Sendable {
        @PrismShared(.inMemory("settings")) var settings = Settings()
        @PrismShared(.inMemory("user")) var userName = "anonymous"
    }

    enum SettingsAction: Sendable {
        case toggleTheme
        case grow
    }

    struct SettingsFeature: PrismReducer {
        func reduce(into state: inout SettingsFeatureState, action: SettingsAction) -> PrismEffect<SettingsAction> {
            switch action {
            case .toggleTheme:
                state.settings.theme = state.settings.theme == .dark ? .light : .dark
                state.toggles += 1
            case .grow:
                state.settings.fontSize += 1
            }
            return .none
        }
    }

    enum ProfileAction: Sendable {
        case rename(String)
    }

    struct ProfileFeature: PrismReducer {
        func reduce(into state: inout ProfileFeatureState, action: ProfileAction) -> PrismEffect<ProfileAction> {
            switch action {
            case .rename(let name): state.userName = name
            }
            return .none
        }
    }

    /// Makes `body`'s states with a storage of their own, whatever the test's.
    private func withStorage<T>(_ storage: PrismSharedStorage = PrismSharedStorage(), _ body: () -> T) -> T {
        withDependencies {
            $0.prismSharedStorage = storage
        } operation: {
            body()
        }
    }

    @Test("two features that declare one key hold one value: a change in one store is seen by the other")
    func oneValueForOneKey() {
        let (settings, profile) = withStorage {
            (
                PrismStore(initialState: SettingsFeatureState(), reducer: SettingsFeature()),
                PrismStore(initialState: ProfileFeatureState(), reducer: ProfileFeature())
            )
        }
        settings.send(.toggleTheme)
        #expect(settings.state.settings.theme == .dark)
        #expect(profile.state.settings.theme == .dark)
        #expect(profile.state.userName == "anonymous")
    }

    @Test("the default is used by the first holder only; later holders get the value as it is")
    func laterHoldersGetTheValue() {
        withStorage {
            let first = SettingsFeatureState()
            first.settings.fontSize = 20
            let second = SettingsFeatureState()
            #expect(second.settings.fontSize == 20)
            #expect(second.$settings.isSameValue(as: first.$settings))
        }
    }

    @Test("another storage holds other values under the same key")
    func storagesAreApart() {
        let one = withStorage { SettingsFeatureState() }
        let other = withStorage { SettingsFeatureState() }
        one.settings.theme = .dark
        #expect(other.settings.theme == .light)
        #expect(!one.$settings.isSameValue(as: other.$settings))
    }

    @Test("in a test, the storage is the test's own, with a temporary folder for persisted keys")
    func testsGetStorageOfTheirOwn() {
        @Dependency(\.prismSharedStorage) var storage
        #expect(storage.isolatedDirectory != nil)
        #expect(storage.isolatedDirectory?.path.contains(FileManager.default.temporaryDirectory.path) == true)
    }

    @Test("a parent hands its value to a child through the projected value, without a key")
    func projectedValueHandsTheValueOn() {
        struct Child: Equatable {
            @PrismShared var settings: Settings
        }
        let parent = withStorage { SettingsFeatureState() }
        let child = Child(settings: parent.$settings)
        parent.settings.fontSize = 30
        #expect(child.settings.fontSize == 30)
        let ownValue = PrismShared(value: Settings())
        #expect(ownValue.keyID == nil)
        #expect(parent.$settings.keyID == "inMemory:settings")
    }

    @Test("an observer of a shared value is told when any holder changes it, and only then")
    func observersOfTheValueAlone() {
        let (settings, profile) = withStorage {
            (
                PrismStore(initialState: SettingsFeatureState(), reducer: SettingsFeature()),
                PrismStore(initialState: ProfileFeatureState(), reducer: ProfileFeature())
            )
        }
        // Read through the other store (member by member): the changes are made by `settings`'
        // reducer, which `profile` knows nothing about.
        func told(_ read: @escaping @MainActor () -> Void, by change: @MainActor () -> Void) -> Bool {
            let flag = Flag()
            withObservationTracking {
                read()
            } onChange: {
                flag.raise()
            }
            change()
            return flag.isRaised
        }
        let told1 = told({ _ = profile.settings.theme }, by: { settings.send(.toggleTheme) })
        #expect(told1)
        let told2 = told({ _ = profile.userName }, by: { settings.send(.toggleTheme) })
        #expect(!told2)
        let told3 = told({ _ = profile.settings.fontSize }, by: { settings.send(.grow) })
        #expect(told3)
        let told4 = told({ _ = profile.userName }, by: { profile.send(.rename("ada")) })
        #expect(told4)
        let told5 = told({ _ = profile.settings.theme }, by: { profile.send(.rename("grace")) })
        #expect(!told5)
        // A holder outside any store is observed alike.
        let holder = profile.state.$settings
        let told6 = told({ _ = holder.wrappedValue }, by: { settings.send(.grow) })
        #expect(told6)
        let told7 = told({ _ = holder.wrappedValue }, by: { profile.send(.rename("ada")) })
        #expect(!told7)
    }

    @Test("members, scoped and derived stores read through a shared value are never stale")
    func readsThroughTheStoreAreFresh() {
        let (settings, profile) = withStorage {
            (
                PrismStore(initialState: SettingsFeatureState(), reducer: SettingsFeature()),
                PrismStore(initialState: ProfileFeatureState(), reducer: ProfileFeature())
            )
        }
        let fontSize = profile.derive { $0.settings.fontSize }
        #expect(profile.settings.fontSize == 14)
        #expect(fontSize.value == 14)
        settings.send(.grow)
        settings.send(.grow)
        // `profile` had no send: what it kept must not be served.
        #expect(profile.settings.fontSize == 16)
        #expect(fontSize.value == 16)
        let told = Flag()
        withObservationTracking {
            _ = fontSize.value
        } onChange: {
            told.raise()
        }
        settings.send(.grow)
        #expect(told.isRaised)
        #expect(fontSize.value == 17)
    }

    @Test("a scoped store reads the shared value fresh after another store changes it")
    func scopedStoresReadFresh() {
        struct Parent: Equatable, Sendable {
            var child = ProfileFeatureState()
        }
        enum ParentAction: Sendable {
            case child(ProfileAction)
        }
        let (settings, parent) = withStorage {
            (
                PrismStore(initialState: SettingsFeatureState(), reducer: SettingsFeature()),
                PrismStore(
                    initialState: Parent(),
                    reducer: PrismScope(state: \Parent.child, action: ParentAction.child) { ProfileFeature() }
                )
            )
        }
        let child = parent.scope(state: \.child, action: ParentAction.child)
        #expect(child.state.settings.theme == .light)
        settings.send(.toggleTheme)
        #expect(child.state.settings.theme == .dark)
        #expect(child.settings.theme == .dark)
    }

    @Test("undo-style replaceState leaves shared values as they are")
    func replaceStateLeavesSharedValues() {
        let store = withStorage { PrismStore(initialState: SettingsFeatureState(), reducer: SettingsFeature()) }
        let before = store.state
        store.send(.toggleTheme)
        store.replaceState(with: before)
        #expect(store.state.toggles == 0)
        #expect(store.state.settings.theme == .dark)
    }

    /// Raised once, from any thread.
    final class Flag: Sendable {
        private let raised = LockedBox(false)
        var isRaised: Bool { raised.wrappedValue }
        func raise() { raised.mutate { $0 = true } }
    }

    @Test("equality compares values; two holders of one value are equal")
    func equality() {
        let (one, other) = (withStorage { SettingsFeatureState() }, withStorage { SettingsFeatureState() })
        #expect(one == other)
        one.settings.fontSize = 1
        #expect(one != other)
        let copy = one
        #expect(copy == one)
    }

    @Test("reads from other threads see whole values while the main thread changes them")
    func readsOffTheMainThread() async {
        let state = withStorage { SettingsFeatureState() }
        let holder = state.$settings
        let reader = Task.detached {
            var seen = Set<Int>()
            for _ in 0..<20_000 {
                let value = holder.wrappedValue
                // A torn read would mix the two fields of different writes.
                #expect((value.fontSize % 2 == 1) == (value.theme == .dark))
                seen.insert(value.fontSize)
            }
            return seen.count
        }
        for size in 0..<20_000 {
            state.settings = Settings(theme: size % 2 == 1 ? .dark : .light, fontSize: size)
            if size % 1_000 == 0 { await Task.yield() }
        }
        #expect(await reader.value >= 1)
    }

    @Test("a read on another thread while a store's watcher probes does not stop it keeping its value")
    func readsElsewhereDoNotCountForAProbe() async {
        let state = withStorage { SettingsFeatureState() }
        let holder = state.$settings
        // A watcher computes a member on the main actor (a probe never spans a suspension)
        // while another thread reads the value: only the watcher's own reads may mark it as
        // reading shared values, or it would recompute on every read from then on.
        let reads = ReadCounter()
        let reader = Thread {
            while !reads.isStopped {
                _ = holder.wrappedValue
                reads.add()
            }
        }
        reader.start()
        while reads.count < 10 { usleep(100) }
        let probe = SharedReads.beginProbe()
        let start = reads.count
        let deadline = Date.now.addingTimeInterval(5)
        while reads.count < start + 1_000 && Date.now < deadline { usleep(10) }
        let counted = SharedReads.endProbe(probe)
        reads.stop()
        #expect(reads.count >= start + 1_000, "the other thread did not read during the probe")
        #expect(!counted, "a read on another thread counted for the main actor's probe")
        let own = SharedReads.beginProbe()
        _ = state.settings
        #expect(SharedReads.endProbe(own), "the probing thread's own read did not count")
    }

    @Test("a key used with two value types is a programmer error that names the key")
    func typeMismatchIsNamed() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                withDependencies {
                    $0.prismSharedStorage = PrismSharedStorage()
                } operation: {
                    _ = PrismShared(wrappedValue: 1, .inMemory("count"))
                    _ = PrismShared(wrappedValue: "one", .inMemory("count"))
                }
            }
        }
    }

    @Test("a change off the main thread is a programmer error")
    func changesOffTheMainThreadTrap() async {
        await #expect(processExitsWith: .failure) {
            let holder = PrismShared(value: 1)
            await Task.detached { holder.wrappedValue = 2 }.value
        }
    }
}

/// Counts another thread's reads, and tells it to stop.
final class ReadCounter: @unchecked Sendable {  // fields under `lock`
    private let lock = NSLock()
    private var reads = 0
    private var stopped = false

    var count: Int { lock.withLock { reads } }
    var isStopped: Bool { lock.withLock { stopped } }
    func add() { lock.withLock { reads += 1 } }
    func stop() { lock.withLock { stopped = true } }
}
