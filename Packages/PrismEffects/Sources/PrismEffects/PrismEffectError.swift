import PrismSupport

/// An error that an effect threw and that nothing handled.
///
/// When the operation of ``PrismEffect/run(priority:operation:catch:fileID:line:)`` throws and
/// the effect has no `catch:` handler, the store reports a `PrismEffectError` instead of
/// dropping the error. By default it is printed to standard error; set
/// ``unhandledErrorHandler`` (or the store's own handler) to send it elsewhere, for example to
/// your crash reporter or, in tests, to a failing expectation.
public struct PrismEffectError: Error, Sendable, CustomStringConvertible {
    /// The error the effect threw.
    public let underlying: any Error
    /// The file where the effect was created.
    public let fileID: String
    /// The line where the effect was created.
    public let line: UInt

    /// Creates an error report for an effect created at `fileID`:`line`.
    public init(underlying: any Error, fileID: String, line: UInt) {
        self.underlying = underlying
        self.fileID = fileID
        self.line = line
    }

    /// A sentence that says where the effect was created, what it threw, and how to handle it.
    public var description: String {
        """
        An effect created at \(fileID):\(line) threw an error that nothing handled: \(underlying). \
        Catch it inside the effect, or pass a `catch:` handler to `.run`.
        """
    }

    private static let handler = PrismLocked<@Sendable (PrismEffectError) -> Void>(Self.printToStandardError)

    /// What every store does with an unhandled effect error when it has no handler of its own.
    ///
    /// The default prints ``description`` to standard error. Safe to set from any thread.
    public static var unhandledErrorHandler: @Sendable (PrismEffectError) -> Void {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    /// Prints `error`'s description to standard error, prefixed with `[Prism]`.
    public static let printToStandardError: @Sendable (PrismEffectError) -> Void = { error in
        StandardError.write("[Prism] \(error.description)\n")
    }
}
