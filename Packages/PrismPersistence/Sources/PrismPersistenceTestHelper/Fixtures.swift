/// What the crash test saves: a state whose parts all derive from `counter`, so that a torn or
/// mixed file cannot pass for a complete one. The tests define the same shape.
struct CrashState: Codable, Sendable, Equatable {
    var counter: Int
    var items: [String]
    var checksum: Int

    /// The state for `counter`: 1,000 to 1,499 items (tens of kilobytes), the count varying so
    /// that consecutive files have different sizes.
    static func make(_ counter: Int) -> CrashState {
        let items = (0..<(1000 + counter % 500)).map { "item-\(counter)-\($0)" }
        return CrashState(counter: counter, items: items, checksum: counter &* 31 &+ items.count)
    }
}

/// What the UserDefaults tests save.
struct Settings: Codable, Sendable, Equatable {
    var theme: String
    var fontSize: Int
}

/// What the keychain tests save.
struct Credentials: Codable, Sendable, Equatable {
    var token: String
}
