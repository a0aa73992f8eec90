import Prism

extension Tour {
    /// A task's detail, an optional child feature whose timer lives as long as its screen.
    func showChildFeatures() async throws {
        heading("Features made of features: a task's detail is a child feature (ifLet)")
        try session.go(to: ["task", "2"])
        code(
            "go task 2",
            "store.state.detail = TaskDetailState(id: \(session.store.state.detail?.id ?? 0)): its timer started")
        let ticked = await waitFor { (self.session.store.state.detail?.ticks ?? 0) >= 3 }
        let ticks = session.store.state.detail?.ticks ?? 0
        code(
            "(a moment later)",
            "the timer ticked \(Self.count(ticks, "time"))\(ticked ? "" : " (slower than expected)")")
        Console.lines(Render.screen(of: session).map { "       " + $0 })
        _ = session.back()
        let effects = session.detailEffects
        let ended = await waitFor { effects?.isFinished ?? true }
        code(
            "back",
            "store.state.detail = \(session.store.state.detail.map { "\($0)" } ?? "nil"); "
                + (ended ? "the timer ended with it" : "the timer is STILL RUNNING")
        )
        note("AppFeature runs TaskDetailFeature with .ifLet(\\.detail, ...): when the detail goes nil,")
        note("every effect it started is cancelled. Nothing in the detail stops its own timer.")
    }

    /// Waits, a few milliseconds at a time, for `condition`, for at most two seconds.
    private func waitFor(_ condition: @MainActor () -> Bool) async -> Bool {
        for _ in 0..<400 where !condition() {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }
}
