import Foundation

extension PrismNavigationState: Codable where Route: Codable {
    /// The version of the envelope this build writes, and the newest it reads.
    public static var envelopeVersion: Int { 1 }

    private enum CodingKeys: String, CodingKey {
        case version
        case stack
        case sheet
        case fullScreenCover
    }

    /// Encodes the state in a labelled, versioned envelope.
    ///
    /// In JSON: `{"version": 1, "stack": [...], "sheet": ... or null, "fullScreenCover": ... or null}`,
    /// each route encoded by its own `Codable` conformance.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.envelopeVersion, forKey: .version)
        try container.encode(stack, forKey: .stack)
        try container.encode(sheet, forKey: .sheet)
        try container.encode(fullScreenCover, forKey: .fullScreenCover)
    }

    /// Decodes the envelope that ``encode(to:)`` writes.
    ///
    /// Throws a ``PrismRoutingError``: ``PrismRoutingError/Code/corruptData`` when `version` or
    /// `stack` is missing or of the wrong kind, ``PrismRoutingError/Code/unsupportedVersion`` for
    /// an envelope newer than ``envelopeVersion``, and ``PrismRoutingError/Code/undecodableRoute``
    /// when a route no longer decodes. A missing `sheet` or `fullScreenCover` is `nil`.
    public init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<CodingKeys>
        let version: Int
        do {
            container = try decoder.container(keyedBy: CodingKeys.self)
            version = try container.decode(Int.self, forKey: .version)
        } catch {
            throw PrismRoutingError(
                .corruptData,
                "saved navigation state is not a navigation envelope with a version",
                underlying: error
            )
        }
        guard (1...Self.envelopeVersion).contains(version) else {
            throw PrismRoutingError(
                .unsupportedVersion,
                "saved navigation state has envelope version \(version); this build reads 1 to \(Self.envelopeVersion)",
                value: String(version)
            )
        }

        var stackContainer: any UnkeyedDecodingContainer
        do {
            stackContainer = try container.nestedUnkeyedContainer(forKey: .stack)
        } catch {
            throw PrismRoutingError(
                .corruptData,
                "saved navigation state has no stack array",
                underlying: error
            )
        }
        var stack: [Route] = []
        while !stackContainer.isAtEnd {
            let location = "stack[\(stackContainer.currentIndex)]"
            do {
                stack.append(try stackContainer.decode(Route.self))
            } catch {
                throw Self.undecodable(at: location, error)
            }
        }
        self.init(
            stack: stack,
            sheet: try Self.decodeRoute(in: container, forKey: .sheet),
            fullScreenCover: try Self.decodeRoute(in: container, forKey: .fullScreenCover)
        )
    }

    private static func decodeRoute(
        in container: KeyedDecodingContainer<CodingKeys>,
        forKey key: CodingKeys
    ) throws(PrismRoutingError) -> Route? {
        do {
            return try container.decodeIfPresent(Route.self, forKey: key)
        } catch {
            throw undecodable(at: key.stringValue, error)
        }
    }

    private static func undecodable(at location: String, _ error: any Error) -> PrismRoutingError {
        PrismRoutingError(
            .undecodableRoute,
            "the route at \(location) of saved navigation state no longer decodes as \(Route.self)",
            value: location,
            underlying: error
        )
    }
}

// MARK: - Data

extension PrismNavigationState where Route: Codable {
    /// The state as JSON, in the versioned envelope, ready to save for the next launch.
    ///
    /// ```swift
    /// let data = try state.encoded()
    /// UserDefaults.standard.set(data, forKey: "navigation")
    /// ```
    ///
    /// - Throws: ``PrismRoutingError`` with code ``PrismRoutingError/Code/encodingFailed`` when a
    ///   route's `encode(to:)` throws.
    public func encoded() throws(PrismRoutingError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(self)
        } catch {
            throw PrismRoutingError(
                .encodingFailed,
                "the navigation state could not be encoded",
                underlying: error
            )
        }
    }

    /// Decodes a state that ``encoded()`` wrote.
    ///
    /// ```swift
    /// let restored = try PrismNavigationState<AppRoute>(restoringFrom: data)
    /// ```
    ///
    /// - Throws: ``PrismRoutingError`` with code ``PrismRoutingError/Code/corruptData`` (not
    ///   JSON, or not an envelope), ``PrismRoutingError/Code/unsupportedVersion`` (written by a
    ///   newer build) or ``PrismRoutingError/Code/undecodableRoute`` (a route saved by an older
    ///   build that no longer decodes).
    public init(restoringFrom data: Data) throws(PrismRoutingError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch let error as PrismRoutingError {
            throw error
        } catch {
            throw PrismRoutingError(
                .corruptData,
                "saved navigation state is not valid JSON",
                underlying: error
            )
        }
    }

    /// Replaces this state with the one `data` holds, or throws and leaves it unchanged.
    ///
    /// Treat a failure as "start at the root": the saved path belongs to another version of the
    /// app, and the error says why.
    ///
    /// ```swift
    /// do {
    ///     try state.restore(from: savedData)
    /// } catch {
    ///     logger.notice("Not restoring navigation: \(error)")
    /// }
    /// ```
    ///
    /// - Throws: the errors of ``init(restoringFrom:)``.
    public mutating func restore(from data: Data) throws(PrismRoutingError) {
        self = try Self(restoringFrom: data)
    }
}
