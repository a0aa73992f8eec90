import Foundation
import PrismSupport

/// Turns states into the envelopes the strategies store, and back, running migrations.
///
/// The envelope is `{"version": N, "state": ...}`. Loading a state of the current version is
/// one pass of `JSONDecoder`: the envelope's `init(from:)` checks the version before it decodes
/// the state. Only an older version takes the slower path through `JSONSerialization` to hand
/// each migration the state's JSON.
enum StateCodec {
    /// The migrations of `State`: its own if it is a ``PrismVersionedState``, else version 1.
    static func migrations<State>(for _: State.Type) -> PrismPersistenceMigrations {
        (State.self as? any PrismVersionedState.Type)?.persistenceMigrations ?? .initial
    }

    /// The envelope of `state`, as JSON.
    static func encode<State: Encodable>(_ state: State, key: String) throws -> Data {
        let version = migrations(for: State.self).currentVersion
        do {
            return try JSONEncoder().encode(OutgoingEnvelope(version: version, state: state))
        } catch {
            throw PrismPersistenceError(
                code: .encodingFailed,
                key: key,
                message: "The \(State.self) could not be encoded as JSON; nothing was written.",
                underlying: error
            )
        }
    }

    /// Why stored data did not become a state.
    struct Failure: Error {
        var code: PrismPersistenceError.Code
        var message: String
        var version: Int?
        var underlying: (any Error)?

        /// Whether the data is a well-formed envelope whose version is the problem.
        var isVersionProblem: Bool {
            code == .unsupportedVersion || code == .migrationMissing || code == .migrationFailed
        }
    }

    /// The state in `data`, migrated to the current version of `State`.
    static func decode<State: Decodable>(_: State.Type, from data: Data) -> Result<State, Failure> {
        let migrations = migrations(for: State.self)
        let decoder = JSONDecoder()
        decoder.userInfo[.prismExpectedVersion] = migrations.currentVersion
        do {
            return .success(try decoder.decode(IncomingEnvelope<State>.self, from: data).state)
        } catch let mismatch as VersionMismatch {
            return migrate(State.self, from: mismatch.version, data: data, migrations: migrations)
        } catch let failure as StateFailure {
            return .failure(
                Failure(
                    code: .decodingFailed,
                    message: """
                        The stored value is a saved state of version \(migrations.currentVersion), but it does \
                        not decode as \(State.self): \(DecodingErrorText.describe(failure.underlying)) If the type \
                        changed, adopt PrismVersionedState, bump its version and register a migration, or make new \
                        properties optional.
                        """,
                    version: migrations.currentVersion,
                    underlying: failure.underlying
                )
            )
        } catch {
            return .failure(notAnEnvelope(error))
        }
    }

    private static func migrate<State: Decodable>(
        _: State.Type,
        from storedVersion: Int,
        data: Data,
        migrations: PrismPersistenceMigrations
    ) -> Result<State, Failure> {
        let current = migrations.currentVersion
        guard storedVersion >= 1 && storedVersion < current else {
            return .failure(
                Failure(
                    code: .unsupportedVersion,
                    message: """
                        The stored value has schema version \(storedVersion), but \(State.self) is at version \
                        \(current): it was saved by a newer version of the app, or is not a version this one \
                        knows.
                        """,
                    version: storedVersion
                )
            )
        }
        var json: Data
        do {
            json = try stateJSON(in: data)
        } catch {
            return .failure(notAnEnvelope(error))
        }
        for step in storedVersion..<current {
            guard let migration = migrations.migration(from: step) else {
                return .failure(
                    Failure(
                        code: .migrationMissing,
                        message: """
                            The stored value has schema version \(storedVersion) and \(State.self) is at version \
                            \(current), but no migration from version \(step) is registered in its \
                            persistenceMigrations.
                            """,
                        version: storedVersion
                    )
                )
            }
            do {
                json = try migration(json)
            } catch {
                return .failure(
                    Failure(
                        code: .migrationFailed,
                        message: """
                            The migration of \(State.self) from version \(step) threw while loading a value \
                            saved at version \(storedVersion): \(error).
                            """,
                        version: storedVersion,
                        underlying: error
                    )
                )
            }
        }
        do {
            return .success(try JSONDecoder().decode(State.self, from: json))
        } catch {
            return .failure(
                Failure(
                    code: .decodingFailed,
                    message: """
                        The stored value was migrated from version \(storedVersion) to \(current), but the result \
                        does not decode as \(State.self): \(DecodingErrorText.describe(error)) Check the migrations.
                        """,
                    version: storedVersion,
                    underlying: error
                )
            )
        }
    }

    /// The JSON of the envelope's `state`, for the migrations.
    private static func stateJSON(in data: Data) throws -> Data {
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        guard let envelope = object as? [String: Any], let state = envelope["state"] else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "The envelope has no state.")
            )
        }
        return try JSONSerialization.data(withJSONObject: state, options: [.fragmentsAllowed])
    }

    private static func notAnEnvelope(_ error: any Error) -> Failure {
        let what: String
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            what = "is not valid JSON (it may be empty, truncated or binary)"
        default:
            what = "is JSON but not a saved state: it has no {\"version\": N, \"state\": ...} envelope"
        }
        return Failure(code: .corruptFile, message: "The stored value \(what).", underlying: error)
    }
}

extension CodingUserInfoKey {
    /// The version `IncomingEnvelope` expects; anything else is a `VersionMismatch`.
    fileprivate static let prismExpectedVersion = CodingUserInfoKey(rawValue: "PrismPersistence.expectedVersion")!
}

private enum EnvelopeKeys: String, CodingKey {
    case version
    case state
}

private struct OutgoingEnvelope<State: Encodable>: Encodable {
    let version: Int
    let state: State

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EnvelopeKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(state, forKey: .state)
    }
}

/// The stored version is not the expected one: migrate, or refuse.
private struct VersionMismatch: Error {
    let version: Int
}

/// The envelope is fine; the state in it does not decode.
private struct StateFailure: Error {
    let underlying: any Error
}

private struct IncomingEnvelope<State: Decodable>: Decodable {
    let state: State

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: EnvelopeKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard container.contains(.state) else {
            throw DecodingError.keyNotFound(
                EnvelopeKeys.state,
                DecodingError.Context(codingPath: [], debugDescription: "The envelope has no state.")
            )
        }
        let expected = decoder.userInfo[.prismExpectedVersion] as? Int ?? 1
        guard version == expected else { throw VersionMismatch(version: version) }
        do {
            state = try container.decode(State.self, forKey: .state)
        } catch {
            throw StateFailure(underlying: error)
        }
    }
}
