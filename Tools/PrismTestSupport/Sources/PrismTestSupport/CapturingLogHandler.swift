import Logging

/// A swift-log handler that keeps every line it is given, as `"<level> <message> <metadata>"`
/// with the metadata sorted as `key=value` pairs: what a test reads to check what was logged
/// (and, above all, what was not: secrets).
public struct CapturingLogHandler: LogHandler {
    /// The lines logged so far, oldest first.
    public let lines: LockedBox<[String]>
    /// The handler's own metadata (swift-log's `LogHandler` requirement).
    public var metadata: Logger.Metadata = [:]
    /// Every level is kept.
    public var logLevel: Logger.Level = .trace

    /// A handler that appends to `lines`.
    public init(lines: LockedBox<[String]>) {
        self.lines = lines
    }

    /// One value of the handler's own metadata.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Appends the event as one line.
    public func log(event: LogEvent) {
        let metadata = (event.metadata ?? [:]).map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        lines.mutate { $0.append("\(event.level) \(event.message) \(metadata)") }
    }
}
