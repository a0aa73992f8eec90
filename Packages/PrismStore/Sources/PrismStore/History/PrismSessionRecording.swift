import PrismSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The actions a store received, in order, with the state it started from: a session that can
/// be saved to a file and replayed to reproduce the same states.
///
/// Record with a ``PrismSessionRecorder``; replay in a test to turn a user's bug report into a
/// regression test:
///
/// ```swift
/// let recording = try PrismSessionRecording<AppState, AppAction>(contentsOf: reportURL)
/// let store = recording.replay(reducer: AppReducer())
/// #expect(store.state.items.count == 3)
/// ```
///
/// Replaying runs the reducer only: the recording already holds every action the effects sent
/// back, so running the effects again would send them twice.
public struct PrismSessionRecording<State: Codable & Sendable, Action: Codable & Sendable>: Codable, Sendable {
    /// One recorded action and when it arrived, in seconds after the recording started.
    public struct Entry: Codable, Sendable {
        /// Seconds between the start of the recording and this action.
        public var offset: Double
        /// The action.
        public var action: Action

        /// Creates an entry for `action`, `offset` seconds into the recording.
        public init(offset: Double, action: Action) {
            self.offset = offset
            self.action = action
        }
    }

    /// The version of the file format this type writes.
    public static var formatVersion: Int { 1 }

    /// The state the store was in when recording started.
    public var initialState: State
    /// Every action, in the order the store reduced it.
    public var entries: [Entry]

    /// Creates a recording that starts at `initialState`.
    public init(initialState: State, entries: [Entry] = []) {
        self.initialState = initialState
        self.entries = entries
    }

    /// The recorded actions, in order.
    public var actions: [Action] { entries.map(\.action) }

    private enum CodingKeys: String, CodingKey {
        case format
        case version
        case initialState
        case entries
    }

    /// Decodes a recording, rejecting files of another format or of a newer version.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decode(String.self, forKey: .format)
        guard format == "prism-session" else {
            throw DecodingError.dataCorruptedError(
                forKey: .format,
                in: container,
                debugDescription: "Not a Prism session recording (format \"\(format)\")."
            )
        }
        let version = try container.decode(Int.self, forKey: .version)
        guard version <= Self.formatVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .version,
                in: container,
                debugDescription:
                    "Session recording version \(version) is newer than this library reads (\(Self.formatVersion))."
            )
        }
        initialState = try container.decode(State.self, forKey: .initialState)
        entries = try container.decode([Entry].self, forKey: .entries)
    }

    /// Encodes the recording with its format name and version.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("prism-session", forKey: .format)
        try container.encode(Self.formatVersion, forKey: .version)
        try container.encode(initialState, forKey: .initialState)
        try container.encode(entries, forKey: .entries)
    }

    /// Reads a recording saved with ``write(to:)``.
    public init(contentsOf url: URL) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(contentsOf: url))
    }

    /// Writes the recording as JSON to `url`, atomically.
    public func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
    }

    /// The state after each recorded action, computed by running `reducer` over the actions
    /// from the initial state (effects are not run).
    @MainActor
    public func states<R: PrismReducer>(reducer: R) -> [State] where R.State == State, R.Action == Action {
        var state = initialState
        return actions.map { action in
            _ = reducer.reduce(into: &state, action: action)
            return state
        }
    }

    /// A fresh store that starts at the initial state and has reduced every recorded action,
    /// in order, with `reducer`. Effects are not run (see the type's discussion).
    @MainActor
    public func replay<R: PrismReducer>(reducer: R) -> PrismStore<State, Action>
    where R.State == State, R.Action == Action {
        let store = PrismStore(
            initialState: initialState,
            reducer: PrismReduce<State, Action> { state, action in
                _ = reducer.reduce(into: &state, action: action)
                return .none
            }
        )
        for action in actions { store.send(action) }
        return store
    }
}

/// Records every action a store reduces, for ``PrismSessionRecording``.
///
/// ```swift
/// let recorder = PrismSessionRecorder<AppState, AppAction>(initialState: initialState)
/// let store = PrismStore(initialState: initialState, reducer: AppReducer(), middleware: recorder.middleware())
/// // ... later, when the user reports a bug:
/// try recorder.recording.write(to: reportURL)
/// ```
@MainActor
public final class PrismSessionRecorder<State: Codable & Sendable, Action: Codable & Sendable> {
    /// What has been recorded so far.
    public private(set) var recording: PrismSessionRecording<State, Action>
    private let start = ContinuousClock.now

    /// Creates a recorder for a store that starts at `initialState`.
    public init(initialState: State) {
        recording = PrismSessionRecording(initialState: initialState)
    }

    /// Appends `action` to the recording.
    public func record(_ action: Action) {
        let elapsed = ContinuousClock.now - start
        recording.entries.append(.init(offset: DurationMath.seconds(elapsed), action: action))
    }

    /// Middleware that records every action the store reduces.
    public func middleware() -> PrismSideEffect<State, Action> {
        PrismSideEffect { [weak self] _, action in
            self?.record(action)
            return .none
        }
    }
}
