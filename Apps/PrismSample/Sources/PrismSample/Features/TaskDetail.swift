import Prism

/// The state of a task's detail screen, while it is open: which task, and how long it has
/// been open, in ticks of its timer.
struct TaskDetailState: Equatable, Identifiable, Sendable {
    /// The task shown.
    let id: Int
    /// How many times the detail's timer ticked since it opened.
    var ticks = 0
}

/// What happens on a task's detail screen.
enum TaskDetailAction: Codable, Equatable, Sendable {
    /// The screen opened: its timer starts.
    case opened
    /// The timer ticked.
    case timerTicked
}

/// A task's detail: an optional child feature of the app, there while the task's screen is
/// open. Its timer runs until the screen closes: the app runs it with `ifLet`, which cancels
/// every effect of the detail when its state goes back to nil, so nothing here stops it.
struct TaskDetailFeature: PrismReducer {
    /// How often the timer ticks.
    let interval: Duration

    func reduce(into state: inout TaskDetailState, action: TaskDetailAction) -> PrismEffect<TaskDetailAction> {
        switch action {
        case .opened:
            return .run { [interval] send in
                let clock = ContinuousClock()
                var next = clock.now
                while true {
                    next = next.advanced(by: interval)
                    try await clock.sleep(until: next)
                    send(.timerTicked)
                }
            }
        case .timerTicked:
            state.ticks += 1
            return .none
        }
    }
}
