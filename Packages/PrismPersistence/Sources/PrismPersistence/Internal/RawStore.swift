import Foundation

/// Where a strategy keeps its bytes: a folder of files, a `UserDefaults` suite, a keychain.
///
/// The strategies are thin: they validate the key, then `StateCodec` and the shared logic
/// below do the encoding, the versions and the moving aside, the same way for every store.
protocol RawStore: Sendable {
    /// Where the value of `key` lives, for errors (a file), if the store has such a thing.
    func location(of key: String) -> URL?
    /// The bytes stored under `key`, or `nil` if there are none. Throws a
    /// ``PrismPersistenceError``, or an `UnreadableValue` for a value that is there but cannot
    /// be bytes (it is then moved aside like undecodable bytes).
    func read(key: String) throws -> Data?
    /// Stores `data` under `key` in one step: what was there before stays until it is replaced.
    func write(_ data: Data, key: String) throws
    /// Removes what is stored under `key`; nothing there is not an error.
    func remove(key: String) throws
    /// Moves what is stored under `key` to a name made of the key and `suffix`, never
    /// overwriting anything, and says where it went.
    func moveAside(key: String, suffix: String) throws -> MovedAside
}

/// Where an unreadable value was moved.
struct MovedAside {
    var key: String?
    var url: URL?
}

/// A value that exists but is not bytes (say, a string some other code put in a `UserDefaults`
/// key): as unreadable as corrupt JSON.
struct UnreadableValue: Error {
    var message: String
}

extension RawStore {
    func saveState<State: Encodable>(_ state: State, key: String) throws {
        try PersistenceKey.validate(key)
        try write(try StateCodec.encode(state, key: key), key: key)
    }

    func loadState<State: Decodable>(_: State.Type, key: String) throws -> State? {
        try PersistenceKey.validate(key)
        let failure: StateCodec.Failure
        do {
            guard let data = try read(key: key) else { return nil }
            switch StateCodec.decode(State.self, from: data) {
            case .success(let state): return state
            case .failure(let reason): failure = reason
            }
        } catch let unreadable as UnreadableValue {
            failure = StateCodec.Failure(code: .corruptFile, message: unreadable.message)
        }
        throw setAside(key: key, because: failure)
    }

    func clearState(key: String) throws {
        try PersistenceKey.validate(key)
        try remove(key: key)
    }

    /// Moves the unreadable value of `key` aside, so that the next save cannot destroy it, and
    /// makes the error that reports both.
    private func setAside(key: String, because failure: StateCodec.Failure) -> PrismPersistenceError {
        let stamp = Self.timestamp()
        let suffix = failure.isVersionProblem ? "version-\(failure.version ?? 0)-\(stamp)" : "corrupt-\(stamp)"
        var report = PrismPersistenceError(
            code: failure.code,
            key: key,
            message: failure.message,
            url: location(of: key),
            version: failure.version,
            underlying: failure.underlying
        )
        do {
            let moved = try moveAside(key: key, suffix: suffix)
            report.movedAsideKey = moved.key
            report.movedAsideURL = moved.url
        } catch {
            let reason = (error as? PrismPersistenceError)?.message ?? "\(error)"
            report.message += " It could not be moved aside (\(reason)), so it was left where it is."
        }
        return report
    }

    /// The time now in UTC, as `20260520T101502Z`: sorts by time, and is a valid file name
    /// everywhere.
    static func timestamp(_ date: Date = Date()) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
