import Foundation
import Prism
import PrismInspector
import Testing

@testable import prism_sample

/// The inspector writes a test of the sample app's own session. This test checks what it
/// writes; `make test-written` (Tools/scripts/test-written.sh) runs it with
/// `PRISM_WRITE_RECORDED_TEST` set, puts the file in the PrismSampleRecordedTests target, and
/// compiles and runs it there.
@MainActor
@Suite("A test written from the sample's session")
struct WrittenTestTests {
    @Test(
        "the sample's session (tasks added and completed, a shared setting changed twice, a detail opened and closed) is written as a test"
    )
    func writesTheSessionsTest() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("prism-sample-written-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let nowhere = try #require(URL(string: "http://127.0.0.1:9"))
        let session = try TaskSession(
            directory: folder, connection: SyncConnection(target: .server(nowhere), vault: nil, log: { _ in }))
        let inspector = try await PrismInspector.start(session.store, configuration: SampleInspector.configuration)
        _ = try session.add("pears")
        session.settings.send(.setTheme(.color))  // a shared value, saved in preferences.json
        _ = try session.add("Apples")
        session.settings.send(.setSortOrder(.title))
        _ = try session.complete(id: 1)
        session.store.send(.openDetail(taskID: 2))  // its effect sends .detail(.opened) at once
        session.store.send(.closeDetail)
        let recorded = inspector.debugger.snapshots.dropFirst()  // after "(inspector attached)"
        let first = try #require(recorded.first?.index)
        let last = try #require(recorded.last?.index)
        #expect(recorded.count == 8)
        // closeDetail cancelled the detail's timer; once its task has ended, the test waits for
        // every effect at its end instead of skipping those still running.
        var source = try inspector.testSource(from: first, through: last)
        let deadline = ContinuousClock.now + .seconds(60)
        while source.contains("skipInFlightEffects()") && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            source = try inspector.testSource(from: first, through: last)
        }

        #expect(source.contains("@testable import prism_sample"))
        #expect(source.contains("reducer: AppFeature.offline"))
        #expect(
            source.contains(##"try await store.send(Self.action(#"{"tasks":{"_0":{"add":{"title":"pears"}}}}"#))"##))
        #expect(source.contains(##"try await store.receive(Self.action(#"{"detail":{"_0":{"opened":{}}}}"#)"##))
        #expect(source.contains("await store.finish()"))
        // The shared preferences as they were at each step (the history holds them by
        // reference): plain, then color, then color with the title order.
        let preferences = source.components(separatedBy: "\n").compactMap { line -> String? in
            guard let range = line.range(of: #":preferences","value":"#) else { return nil }
            return String(line[range.upperBound...].prefix(40))
        }
        #expect(preferences.count == 9)
        #expect(preferences.first?.hasPrefix(#"{"sortOrder":"added","theme":"plain"}"#) == true)
        #expect(preferences.last?.hasPrefix(#"{"sortOrder":"title","theme":"color"}"#) == true)
        #expect(source.contains("PrismSharedDecoding.asWritten"))
        #expect(source.contains("//   settings.preferences.theme: .plain → .color"))
        // The store was made without dependencies of its own: the sync connection is the reducer's.
        #expect(!source.contains("#error"))
        // AppState's Codable leaves the open detail out: those steps check what the JSON holds.
        #expect(source.contains("The state's Codable leaves out detail"))
        if let path = ProcessInfo.processInfo.environment["PRISM_WRITE_RECORDED_TEST"] {
            try source.write(toFile: path, atomically: true, encoding: .utf8)
        }
        await inspector.stop()
        try await session.close()
    }
}
