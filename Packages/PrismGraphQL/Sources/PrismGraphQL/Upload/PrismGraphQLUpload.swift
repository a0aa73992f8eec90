import Foundation
import PrismSupport

/// A file as the value of a variable of the GraphQL multipart request specification's `Upload`
/// scalar: what the code generator makes of `Upload` in a generated operation's variables.
///
/// ```swift
/// let photo = PrismGraphQLUpload(fileURL: photoURL, mimeType: "image/jpeg")
/// let response = try await graphql.upload(SetAvatarMutation(file: photo))
/// ```
///
/// ``PrismGraphQLClient/upload(_:options:progress:)`` finds every upload in the operation's
/// variables, at any depth (`file`, `files.0`, `input.attachments.1`), and sends each as a part
/// of the request, streamed from disk, while its place in the variables holds `null` as the
/// specification says. Encoded any other way (a plain `execute`), an upload is `null`.
public struct PrismGraphQLUpload: Sendable, Hashable, Codable {
    /// The file name sent with the part.
    public var fileName: String
    /// The part's `Content-Type`.
    public var mimeType: String
    let content: PrismGraphQLFile.Content

    /// A file on disk, streamed when the operation is sent; its name is the URL's last component
    /// unless `fileName` is given.
    public init(fileURL: URL, fileName: String? = nil, mimeType: String = "application/octet-stream") {
        self.fileName = fileName ?? fileURL.lastPathComponent
        self.mimeType = mimeType
        content = .file(fileURL)
    }

    /// Bytes in memory.
    public init(data: Data, fileName: String, mimeType: String = "application/octet-stream") {
        self.fileName = fileName
        self.mimeType = mimeType
        content = .data(data)
    }

    /// `null`, and, while ``PrismGraphQLClient/upload(_:options:progress:)`` looks for files,
    /// this upload at its place in the variables.
    public func encode(to encoder: any Encoder) throws {
        (encoder.userInfo[Collector.key] as? Collector)?.add(self, at: encoder.codingPath)
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }

    /// Always throws: an upload is sent, never received.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(
            PrismGraphQLUpload.self,
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "An Upload is a file a request sends; a response cannot hold one."))
    }

    /// The uploads in `variables`, each as a ``PrismGraphQLFile`` at its place.
    ///
    /// - Throws: ``PrismGraphQLError`` with code `encodingFailed` when the variables do not encode.
    static func files(in variables: some Encodable) throws(PrismGraphQLError) -> [PrismGraphQLFile] {
        let collector = Collector()
        let encoder = JSONEncoder()
        encoder.userInfo[Collector.key] = collector
        do {
            _ = try encoder.encode(variables)
        } catch {
            throw PrismGraphQLError(code: .encodingFailed, message: "The variables could not be encoded: \(error)")
        }
        var files: [PrismGraphQLFile] = []
        for (path, upload) in collector.uploads {
            switch upload.content {
            case .file(let url):
                files.append(
                    try PrismGraphQLFile(
                        fileURL: url, variable: path, fileName: upload.fileName, mimeType: upload.mimeType))
            case .data(let data):
                files.append(
                    try PrismGraphQLFile(
                        data: data, variable: path, fileName: upload.fileName, mimeType: upload.mimeType))
            }
        }
        return files
    }

    /// Where the uploads of one encoding of the variables are.
    final class Collector: Sendable {
        static let key = CodingUserInfoKey(rawValue: "org.prism.PrismGraphQLUpload.collector")!

        private let found = PrismLocked<[(String, PrismGraphQLUpload)]>([])

        var uploads: [(String, PrismGraphQLUpload)] { found.value }

        func add(_ upload: PrismGraphQLUpload, at path: [any CodingKey]) {
            let variable = path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            found.withLock { $0.append((variable, upload)) }
        }
    }
}
