/// How strictly a ``PrismTestStore`` checks what a test did not assert.
public enum PrismExhaustivity: Sendable, Equatable {
    /// Light until the test asserts: plain `send(_:)` and `waitForEffects()` check only what
    /// the test reads. The first asserting call (`send(_:assert:)`, `receive`, `finish()`)
    /// turns the store exhaustive, as if it were ``on``.
    case automatic
    /// Every state change must be described, every action effects send back must be received,
    /// and every effect must have finished when the test store goes away.
    case on
    /// Assertions check only what they describe: other state changes, actions nobody received
    /// and effects still running are ignored. For integration-style tests.
    case off
}
