@_spi(PrismInternals) import PrismStore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an inspector can do beyond showing, by what its types conform to (see the `start`
/// overloads).
struct InspectorCapabilities<State: Sendable, Action: Sendable>: Sendable {
    /// Decodes a `send` message's action.
    var decodeAction: (@Sendable (Data) throws -> Action)?
    /// An action as JSON, to edit and send again.
    var encodeAction: (@Sendable (Action) -> String?)?
    /// A session recording as JSON.
    var encodeRecording: (@Sendable (PrismSessionRecordingParts<State, Action>) throws -> Data)?
    /// A state as the JSON a generated test decodes (keys sorted), its shared values as they
    /// were when it was recorded.
    var encodeStateForTest: (@Sendable (State, PrismSharedTools.Values) throws -> String)?
    /// An action likewise.
    var encodeActionForTest: (@Sendable (Action) throws -> String)?
    /// A state back from that JSON (to find what its `Codable` conformance leaves out).
    var decodeStateForTest: (@Sendable (String) throws -> State)?
    /// A `load` message's session recording.
    var decodeRecording: (@Sendable (Data) throws -> PrismSessionRecordingParts<State, Action>)?
}

/// A session recording's content, whatever the types conform to.
struct PrismSessionRecordingParts<State: Sendable, Action: Sendable>: Sendable {
    var fileName: String?
    var initialState: State
    var entries: [(offset: Double, action: Action)]
    /// The shared values of the initial state as they were then (for an export).
    var sharedValues = PrismSharedTools.Values.current
}

/// A running effect, by the action that started it.
struct RunningEffect {
    let task: PrismEffectTask
    let index: Int
    let since: Double
}
