import Foundation
import Prism

extension Tour {
    func showSharedValues() async throws {
        heading("Shared values: settings and the signed-in user (@PrismShared)")
        session.settings.send(.signIn(name: "Ada"))
        code(
            "settings.send(.signIn(name: \"Ada\"))",
            "settings.user: \(session.settings.state.user?.name ?? "nil"), sync.user: \(session.sync.state.user?.name ?? "nil")"
        )
        note("The settings feature and the sync feature each declare @PrismShared(.signedInUser): one value.")
        session.settings.send(.setSortOrder(.title))
        code("settings.send(.setSortOrder(.title))", "the list, by title:")
        Console.lines(Render.taskList(of: session).map { "    " + $0 })
        try await session.save()
        note("Each value saved itself, in its own file: preferences.json, user.json (not in tasks.json).")

        // Another storage over the same folder: what a second run of the app, or a second
        // window with storage of its own, would be.
        let elsewhere = PrismSharedStorage()
        let other = PrismStore(
            initialState: withDependencies {
                $0.prismSharedStorage = elsewhere
                $0.sampleDataDirectory = directory
            } operation: {
                SettingsState()
            },
            reducer: SettingsFeature()
        )
        note("Elsewhere (another storage of the same files), the sort order is \(other.state.preferences.sortOrder).")
        other.send(.setSortOrder(.added))
        try await elsewhere.flush()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while session.settings.state.preferences.sortOrder != .added, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        code(
            "elsewhere: send(.setSortOrder(.added)), saved",
            "the tour's store sees sort order \(session.settings.state.preferences.sortOrder) (the file is watched)"
        )
    }
}
