/// Where in the code an action was sent: the `store.send` call, or, for an action an effect
/// sent, where the effect was made (`.run`).
public struct PrismCallSite: Sendable, CustomStringConvertible {
    /// The file, as `#fileID` writes it (`MyApp/Features/Settings.swift`).
    public let fileID: StaticString
    /// The line.
    public let line: UInt
    /// The function, as `#function` writes it.
    public let function: StaticString

    /// A call site.
    @inlinable
    public init(fileID: StaticString, line: UInt, function: StaticString) {
        self.fileID = fileID
        self.line = line
        self.function = function
    }

    /// `MyApp/Features/Settings.swift:42 in save()`, without the function when it is not known.
    public var description: String {
        let function = "\(function)"
        return function.isEmpty ? "\(fileID):\(line)" : "\(fileID):\(line) in \(function)"
    }
}
