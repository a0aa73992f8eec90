/// A problem the generator found, at a place in a file: printed as
/// `path:line:column: error: message`, the form SwiftPM and Xcode show at that place.
public struct CodegenDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable {
        /// The build fails.
        case error
        /// The build goes on.
        case warning
    }

    /// The file, as given to the generator; nil for a problem with no file (a missing schema).
    public var file: String?
    /// The line, from 1; nil when the problem is the file's as a whole.
    public var line: Int?
    /// The column, from 1, in UTF-8 bytes as compilers count them.
    public var column: Int?
    /// Whether the build fails.
    public var severity: Severity
    /// What is wrong, in the words of the GraphQL specification's reference implementation where it has some.
    public var message: String

    /// A problem at `file`, `line` and `column`.
    public init(file: String?, line: Int? = nil, column: Int? = nil, severity: Severity = .error, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.message = message
    }

    /// `file:line:column: error: message`.
    public var description: String {
        var place = ""
        if let file {
            place = file
            if let line {
                place += ":\(line)"
                if let column { place += ":\(column)" }
            }
            place += ": "
        }
        return "\(place)\(severity.rawValue): \(message)"
    }
}

/// The generator stopped: what it found, each at its place.
public struct CodegenFailure: Error, Sendable, CustomStringConvertible {
    /// Every problem found, in the order found.
    public var diagnostics: [CodegenDiagnostic]

    /// A failure with `diagnostics`.
    public init(_ diagnostics: [CodegenDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// Each diagnostic on a line of its own.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}

/// Line and column (from 1; the column in UTF-8 bytes) of the UTF-8 offset `offset` of `text`.
func lineAndColumn(in text: String, utf8Offset offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    var index = 0
    var previousWasCarriageReturn = false
    for byte in text.utf8 {
        if index >= offset { break }
        index += 1
        if byte == UInt8(ascii: "\n") {
            if !previousWasCarriageReturn { line += 1 }
            lineStart = index
            previousWasCarriageReturn = false
        } else if byte == UInt8(ascii: "\r") {
            line += 1
            lineStart = index
            previousWasCarriageReturn = true
        } else {
            previousWasCarriageReturn = false
        }
    }
    return (line, offset - lineStart + 1)
}
