import Foundation

/// A file sent with a GraphQL operation, by the GraphQL multipart request specification
/// (``PrismGraphQLClient/upload(_:files:as:options:progress:)``).
///
/// ```swift
/// let avatar = try PrismGraphQLFile(fileURL: photoURL, variable: "file", mimeType: "image/jpeg")
/// let response = try await graphql.upload(setAvatar, files: [avatar], as: SetAvatarData.self)
/// ```
///
/// ``variable`` is where the file goes in the operation's variables, as a dotted path of names
/// and list indices (`"file"`, `"files.0"`, `"input.attachments.1"`): that place holds `null` in
/// the `operations` field, and the server puts the file there. A file on disk is streamed from
/// disk, never read whole into memory.
public struct PrismGraphQLFile: Sendable {
    /// Where the file goes in the variables: names and list indices joined by dots.
    public var variable: String
    /// The file name sent with the part.
    public var fileName: String
    /// The part's `Content-Type`.
    public var mimeType: String
    /// Where the bytes come from.
    let content: Content

    enum Content: Sendable, Hashable {
        case file(URL)
        case data(Data)
    }

    /// A file on disk, streamed when the operation is sent; its name is the URL's last
    /// component unless `fileName` is given.
    ///
    /// - Throws: ``PrismGraphQLError`` with code `encodingFailed` when `variable` is not a
    ///   dotted path of names and indices.
    public init(
        fileURL: URL, variable: String, fileName: String? = nil, mimeType: String = "application/octet-stream"
    ) throws(PrismGraphQLError) {
        try Self.check(variable)
        self.variable = variable
        self.fileName = fileName ?? fileURL.lastPathComponent
        self.mimeType = mimeType
        self.content = .file(fileURL)
    }

    /// Bytes in memory.
    ///
    /// - Throws: ``PrismGraphQLError`` with code `encodingFailed` when `variable` is not a
    ///   dotted path of names and indices.
    public init(
        data: Data, variable: String, fileName: String, mimeType: String = "application/octet-stream"
    ) throws(PrismGraphQLError) {
        try Self.check(variable)
        self.variable = variable
        self.fileName = fileName
        self.mimeType = mimeType
        self.content = .data(data)
    }

    /// The path's parts: names and indices.
    var pathComponents: [String] {
        variable.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    private static func check(_ variable: String) throws(PrismGraphQLError) {
        let parts = variable.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            !parts.isEmpty && Int(parts[0]) == nil
            && parts.allSatisfy { part in
                !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            }
        guard valid else {
            throw PrismGraphQLError(
                code: .encodingFailed,
                message: "\"\(variable)\" is not a variable path such as \"file\" or \"input.files.0\"."
            )
        }
    }
}
