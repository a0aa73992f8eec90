import Foundation
import PrismArchitecture
import PrismInspector
@_spi(PrismInternals) import PrismStore

/// What an attached inspector costs: a send with no page open (the bar: at most 50 ns more
/// than a plain send of a small state), a send while a page is open (reduces are timed), a
/// stream of 10,000 actions a second to an open page, and a send on a large state, where every
/// recorded snapshot keeps the collection that the next action then copies.
@MainActor
func inspectorBenchmarks() async throws -> [Result] {
    var results: [Result] = []
    // `--filter` picks by these names: "inspector" runs them all, "send" the first.
    if selected("inspector: send") {
        results += try await inspectorSendBenchmarks()
    }
    if selected("inspector: stream") {
        results.append(try await inspectorStreamingBenchmark())
    }
    if selected("inspector: large state") {
        results += try await inspectorLargeStateBenchmarks()
    }
    return results
}

/// A send of a small state with an inspector attached, beside a plain send measured in turn.
@MainActor
private func inspectorSendBenchmarks() async throws -> [Result] {
    let sends = 1_000_000
    let attachedStore = PrismStore(initialState: CounterState(), reducer: CounterReducer())
    let inspector = try await PrismInspector.start(attachedStore, configuration: .init(printsURL: false))
    @MainActor func plainSends() {
        let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
        for _ in 0..<sends { store.send(.increment) }
        blackHole(store.state)
    }

    // Nobody looking at the page: the store writes the action and the state into its log.
    let (attached, plain) = measurePair(operations: sends) {
        for _ in 0..<sends { attachedStore.send(.increment) }
    } against: {
        plainSends()
    }

    // A page open: each reduce is also timed, with two precise clock reads.
    attachedStore.tools.measuresReduceDuration = true
    let (timed, plainAgain) = measurePair(operations: sends) {
        for _ in 0..<sends { attachedStore.send(.increment) }
    } against: {
        plainSends()
    }
    attachedStore.tools.measuresReduceDuration = false
    await inspector.stop()
    return [
        Result(
            name: "inspector: send, attached, no page open",
            timing: attached,
            baselineName: "send, no inspector",
            baseline: plain,
            bar: .atMostNanosecondsMore(50)
        ),
        Result(
            name: "inspector: send, attached, page open (reduce timed)",
            timing: timed,
            baselineName: "send, no inspector",
            baseline: plainAgain,
            bar: .none
        ),
    ]
}

/// 10,000 actions a second for a second, 100 every 10 ms from the main actor, while a page
/// reads the stream over its WebSocket (default configuration: batches every 50 ms, 1,000
/// snapshots kept). The figure is the longest the main actor was late for a tick (a stall),
/// beside the same run without an inspector; the run also checks that every action reached the
/// page or was reported to it as dropped.
@MainActor
private func inspectorStreamingBenchmark() async throws -> Result {
    let runs = 3
    var stalls: [Double] = []
    var plainStalls: [Double] = []
    var sent = 0
    let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
    let inspector = try await PrismInspector.start(store, configuration: .init(printsURL: false))
    let page = try await InspectorPageClient.open(inspector.url)
    // The note that the inspector attached is snapshot 0: the page has it once it is connected.
    guard await page.waitForAction(0) else { throw BenchmarkError("the page got no first batch") }
    for _ in 0..<runs {
        stalls.append(await sendPaced(to: store))
        sent += 10_000
        let plainStore = PrismStore(initialState: CounterState(), reducer: CounterReducer())
        plainStalls.append(await sendPaced(to: plainStore))
    }
    let arrived = await page.waitForAction(sent)
    let counts = page.counts
    await page.close()
    await inspector.stop()

    let received = counts.received.filter { (1...sent).contains($0) }.count
    var note = "\(received) of \(sent) actions reached the page in \(counts.batches) batches"
    note += counts.dropped > 0 ? ", \(counts.dropped) reported dropped" : ", none dropped"
    let accounted = arrived && received + counts.dropped == sent
    if !accounted { note += "; \(sent - received - counts.dropped) LOST without a word" }
    return Result(
        name: "inspector: 10,000 actions/s to an open page, longest main-actor stall",
        timing: Timing(nanosecondsPerOperation: stalls.sorted()[runs / 2]),
        baselineName: "the same, no inspector",
        baseline: Timing(nanosecondsPerOperation: plainStalls.sorted()[runs / 2]),
        // A frame at 60 Hz: an app stays smooth while the page streams.
        bar: accounted ? .atMostNanosecondsMore(16_000_000) : .failed,
        note: note
    )
}

/// Sends 10,000 actions over one second, 100 every 10 ms, and returns the longest the main
/// actor was late for a tick, in nanoseconds.
@MainActor
private func sendPaced(to store: PrismStore<CounterState, CounterAction>) async -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    var longest = Duration.zero
    for tick in 1...100 {
        let deadline = start + .milliseconds(10 * tick)
        try? await clock.sleep(until: deadline, tolerance: nil)
        longest = max(longest, clock.now - deadline)
        for _ in 0..<100 { store.send(.increment) }
    }
    let parts = longest.components
    return Double(parts.seconds) * 1e9 + Double(parts.attoseconds) * 1e-9
}

/// A send that toggles one item of a large list, recorded by an inspector (no page open), at
/// 1,000 and 1,000,000 items, with the list in `PrismRows`: each recorded snapshot shares the
/// list's storage, and the next toggle copies only the nodes on the way to its row. The same
/// with a plain `Array` (each snapshot keeps a whole list, which the next toggle copies) is
/// printed beside, at 1,000 and 100,000 items (100 snapshots of a million items would hold
/// 3.2 GB).
@MainActor
private func inspectorLargeStateBenchmarks() async throws -> [Result] {
    let rows1k = try await inspectorRecordedSend(PrismRows<ScaleItem>.self, count: 1_000)
    let rows1M = try await inspectorRecordedSend(PrismRows<ScaleItem>.self, count: 1_000_000)
    let array1k = try await inspectorRecordedSend([ScaleItem].self, count: 1_000)
    let array100k = try await inspectorRecordedSend([ScaleItem].self, count: 100_000)
    func figure(_ timing: Timing) -> String { timing.formatted.trimmingCharacters(in: .whitespaces) }
    return [
        Result(
            name: "inspector: large state, PrismRows, 1,000,000 items",
            timing: rows1M,
            baselineName: "the same, 1,000 items",
            baseline: rows1k,
            bar: .atMostRatio(3),
            note: "1,000 items: \(figure(rows1k)); with an Array instead: 1,000: \(figure(array1k)), "
                + "100,000: \(figure(array100k)) (\(String(format: "%.0fx", array100k.nanosecondsPerOperation / array1k.nanosecondsPerOperation)))"
        )
    ]
}

/// One send that toggles a row, with an inspector attached (history of 100, no page open).
@MainActor
private func inspectorRecordedSend<Items: ScaleItems>(_ items: Items.Type, count: Int) async throws -> Timing {
    let store = PrismStore(initialState: ScaleStateOf<Items>(count: count), reducer: ScaleReducerOf<Items>())
    let inspector = try await PrismInspector.start(store, configuration: .init(historyLimit: 100, printsURL: false))
    let timing = measureScaled(repetitions: 5) { sends in
        for index in 0..<sends { store.send(.toggle(index % count)) }
    }
    await inspector.stop()
    return timing
}
