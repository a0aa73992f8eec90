import Foundation
@_spi(PrismInternals) import PrismEffects
@_exported import PrismTestSupport

/// Drives a real `PrismEffectRuntime` the way a store does, recording what reaches it.
@MainActor
final class RuntimeHarness<Action: Sendable> {
    let runtime = PrismEffectRuntime<Action>()
    /// Every action, immediate or delivered by an effect, in the order it arrived.
    private(set) var received: [Action] = []
    /// Errors effects threw and did not handle.
    let errors = LockedBox<[PrismEffectError]>([])

    init() {
        runtime.setDeliver { [weak self] action, _, _ in self?.received.append(action) }
        let errors = self.errors
        runtime.unhandledErrorHandler = { error in errors.mutate { $0.append(error) } }
    }

    @discardableResult
    func start(_ effect: PrismEffect<Action>) -> PrismEffectTask {
        var task = PrismEffectTask()
        runtime.start(effect, task: &task) { received.append($0) }
        return task
    }
}
