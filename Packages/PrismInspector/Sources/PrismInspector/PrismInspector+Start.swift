@_spi(PrismInternals) import PrismStore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PrismInspector {
    /// Starts an inspector for `store` (a root store) and prints its URL.
    ///
    /// The page shows and steers the store. It can also send actions typed as JSON when the
    /// action type is `Decodable`, and export and load session recordings when the state and
    /// action types are `Codable`: the overloads below.
    ///
    /// - Throws: ``PrismInspectorError`` with code ``PrismInspectorError/Code/cannotListen``
    ///   when the server cannot listen on 127.0.0.1.
    public static func start(
        _ store: PrismStore<State, Action>,
        configuration: Configuration = Configuration()
    ) async throws -> PrismInspector {
        try await start(store, configuration: configuration, capabilities: InspectorCapabilities(), joining: nil)
    }

    /// Starts an inspector for `store` shown on the page of another inspector (`host`, see
    /// ``PrismInspector/host``): one URL for several stores (a scene per window, a background
    /// store), and the page switches between them. The server, its port, its token and its
    /// limits are the host's; `configuration` gives this store's title, history and batches.
    /// The server stops with the last inspector that shares it.
    ///
    /// ```swift
    /// let inspector = try await PrismInspector.start(appStore)
    /// let sync = try await PrismInspector.start(
    ///     syncStore, configuration: .init(title: "Sync"), joining: inspector.host)
    /// ```
    ///
    /// - Throws: ``PrismInspectorError`` with code
    ///   ``PrismInspectorError/Code-swift.struct/cannotListen`` when every inspector of the host
    ///   has stopped, ``PrismInspectorError/Code-swift.struct/storeAlreadyInspected`` when the
    ///   store has an inspector.
    public static func start(
        _ store: PrismStore<State, Action>,
        configuration: Configuration = Configuration(),
        joining host: PrismInspectorHost
    ) async throws -> PrismInspector {
        try await start(store, configuration: configuration, capabilities: InspectorCapabilities(), joining: host)
    }
}

extension PrismInspector where Action: Decodable {
    /// Starts an inspector for `store` whose page can also send actions typed as JSON.
    ///
    /// - Throws: ``PrismInspectorError`` when the server cannot listen on 127.0.0.1.
    public static func start(
        _ store: PrismStore<State, Action>,
        configuration: Configuration = Configuration()
    ) async throws -> PrismInspector {
        var capabilities = InspectorCapabilities<State, Action>()
        capabilities.decodeAction = decodeAction
        return try await start(store, configuration: configuration, capabilities: capabilities, joining: nil)
    }

    /// Starts an inspector for `store` whose page can also send actions typed as JSON, shown on
    /// the page of `host` (see ``start(_:configuration:joining:)``).
    public static func start(
        _ store: PrismStore<State, Action>,
        configuration: Configuration = Configuration(),
        joining host: PrismInspectorHost
    ) async throws -> PrismInspector {
        var capabilities = InspectorCapabilities<State, Action>()
        capabilities.decodeAction = decodeAction
        return try await start(store, configuration: configuration, capabilities: capabilities, joining: host)
    }

    nonisolated static func decodeAction(from data: Data) throws -> Action {
        try JSONDecoder().decode(SendActionMessage<Action>.self, from: data).action
    }
}

extension PrismInspector where State: Codable, Action: Codable {
    /// Starts an inspector for `store` whose page can also send actions typed as JSON, export
    /// the session as a `PrismSessionRecording` file and load one back.
    ///
    /// - Throws: ``PrismInspectorError`` when the server cannot listen on 127.0.0.1.
    public static func start(
        _ store: PrismStore<State, Action>,
        configuration: Configuration = Configuration()
    ) async throws -> PrismInspector {
        try await start(store, configuration: configuration, capabilities: codableCapabilities, joining: nil)
    }

    /// Starts an inspector for `store` whose page can also send actions, export, load and write
    /// tests, shown on the page of `host` (see ``start(_:configuration:joining:)``).
    public static func start(
        _ store: PrismStore<State, Action>,
        configuration: Configuration = Configuration(),
        joining host: PrismInspectorHost
    ) async throws -> PrismInspector {
        try await start(store, configuration: configuration, capabilities: codableCapabilities, joining: host)
    }

    /// What the page can do with `Codable` types.
    private static var codableCapabilities: InspectorCapabilities<State, Action> {
        var capabilities = InspectorCapabilities<State, Action>()
        capabilities.decodeAction = decodeAction
        capabilities.encodeAction = { action in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(action)).flatMap { String(data: $0, encoding: .utf8) }
        }
        capabilities.encodeRecording = { parts in
            let recording = PrismSessionRecording<State, Action>(
                initialState: parts.initialState,
                entries: parts.entries.map { .init(offset: $0.offset, action: $0.action) }
            )
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.userInfo[PrismSharedTools.valuesKey] = parts.sharedValues
            return try encoder.encode(recording)
        }
        capabilities.encodeStateForTest = { state, sharedValues in try testJSON(state, sharedValues: sharedValues) }
        capabilities.encodeActionForTest = { action in try testJSON(action) }
        capabilities.decodeStateForTest = { json in try JSONDecoder().decode(State.self, from: Data(json.utf8)) }
        capabilities.decodeRecording = { data in
            let message = try JSONDecoder().decode(LoadMessage<PrismSessionRecording<State, Action>>.self, from: data)
            return PrismSessionRecordingParts(
                fileName: message.fileName,
                initialState: message.data.initialState,
                entries: message.data.entries.map { ($0.offset, $0.action) }
            )
        }
        return capabilities
    }
}

/// `value` as the JSON a generated test decodes: keys sorted (so that an action not `Equatable`
/// can be matched by its JSON), slashes not escaped.
private func testJSON(_ value: some Encodable, sharedValues: PrismSharedTools.Values = .current) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.userInfo[PrismSharedTools.valuesKey] = sharedValues
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
