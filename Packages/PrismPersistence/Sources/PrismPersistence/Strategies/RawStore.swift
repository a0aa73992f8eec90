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
    /// Takes the key's lock (see ``withExclusiveAccess(key:_:)``) itself.
    func write(_ data: Data, key: String) throws
    /// Removes what is stored under `key`; nothing there is not an error. Takes the key's lock
    /// itself.
    func remove(key: String) throws
    /// Moves what is stored under `key` to a name made of the key and `suffix`, never
    /// overwriting anything, and says where it went. Called inside
    /// ``withExclusiveAccess(key:_:)``.
    func moveAside(key: String, suffix: String) throws -> MovedAside
    /// Runs `body` while no other writer of `key`, in this process or another, can write,
    /// remove or move it aside. Stores without such a lock run `body` as it is.
    func withExclusiveAccess<Result>(key: String, _ body: () throws -> Result) throws -> Result
}

extension RawStore {
    func withExclusiveAccess<Result>(key: String, _ body: () throws -> Result) throws -> Result {
        try body()
    }
}

extension RawStore {
    /// `moveAside` for a store whose items are read and written by key (a keychain): copies the
    /// bytes to the first free name of `key.suffix`, `key.suffix-2`, ..., then removes `key`.
    /// Throws `code` with `vanished` when nothing is stored under `key` any more.
    func copyAside(
        key: String,
        suffix: String,
        vanished: String,
        code: PrismPersistenceError.Code
    ) throws -> MovedAside {
        guard let data = try read(key: key) else {
            throw PrismPersistenceError(code: code, key: key, message: vanished)
        }
        let target = try freeName(aside: key, suffix: suffix) { try read(key: $0) != nil }
        try write(data, key: target)
        try remove(key: key)
        return MovedAside(key: target, url: nil)
    }
}

/// The first name of `key.suffix`, `key.suffix-2`, `key.suffix-3`, ... that `isTaken` says is
/// free: where a store moves an unreadable value aside without overwriting an earlier one.
func freeName(aside key: String, suffix: String, isTaken: (String) throws -> Bool) rethrows -> String {
    var attempt = 1
    var target = "\(key).\(suffix)"
    while try isTaken(target) {
        attempt += 1
        target = "\(key).\(suffix)-\(attempt)"
    }
    return target
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
        let stored = try PersistenceKey.normalized(key)
        try write(try StateCodec.encode(state, key: key), key: stored)
    }

    func loadState<State: Decodable>(_: State.Type, key: String) throws -> State? {
        let stored = try PersistenceKey.normalized(key)
        if let state = try loadState(State.self, storedKey: stored) { return state }
        // Saved by a version of Prism that did not normalise keys, under another spelling of
        // the same key (the one the app still passes): found there until the next save, which
        // writes the normalised key.
        if !PersistenceKey.sameBytes(stored, key) { return try loadState(State.self, storedKey: key) }
        return nil
    }

    func clearState(key: String) throws {
        let stored = try PersistenceKey.normalized(key)
        try remove(key: stored)
        if !PersistenceKey.sameBytes(stored, key) { try remove(key: key) }
    }

    /// The state stored under exactly `key`.
    private func loadState<State: Decodable>(_: State.Type, storedKey key: String) throws -> State? {
        switch try decodeStored(State.self, key: key) {
        case .state(let state): return state
        case .nothing: return nil
        case .unreadable:
            // Another process may have saved a good state since it was read, and a good state
            // must never be moved aside: look again while no writer can replace it, and move
            // aside exactly what is unreadable then.
            return try withExclusiveAccess(key: key) {
                switch try decodeStored(State.self, key: key) {
                case .state(let state): return state
                case .nothing: return nil
                case .unreadable(let failure): throw setAside(key: key, because: failure)
                }
            }
        }
    }

    private func decodeStored<State: Decodable>(_: State.Type, key: String) throws -> Stored<State> {
        do {
            guard let data = try read(key: key) else { return .nothing }
            switch StateCodec.decode(State.self, from: data) {
            case .success(let state): return .state(state)
            case .failure(let reason): return .unreadable(reason)
            }
        } catch let unreadable as UnreadableValue {
            return .unreadable(StateCodec.Failure(code: .corruptFile, message: unreadable.message))
        }
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

/// What is stored under a key, as a state.
private enum Stored<State> {
    case state(State)
    case nothing
    case unreadable(StateCodec.Failure)
}
