import Foundation
import Testing

@testable import PrismGraphQL

/// Where `upload` finds the files of a typed operation: every `PrismGraphQLUpload` in its
/// variables, at any depth, named by its path; `null` in the variables sent.
@Suite("Uploads in a typed operation's variables are found at their places")
struct UploadVariablesTests {
    struct Attachment: Encodable, Sendable, Hashable {
        var caption: String
        var file: PrismGraphQLUpload
    }

    struct Input: Encodable, Sendable, Hashable {
        var title: String
        var cover: PrismGraphQLNullable<PrismGraphQLUpload> = .absent
        var attachments: [Attachment]
    }

    struct Variables: Encodable, Sendable, Hashable {
        var file: PrismGraphQLUpload
        var files: [PrismGraphQLUpload]
        var input: Input
    }

    static let one = PrismGraphQLUpload(data: Data("1".utf8), fileName: "one.txt", mimeType: "text/plain")
    static let two = PrismGraphQLUpload(fileURL: URL(filePath: "/tmp/two.png"), mimeType: "image/png")

    @Test("top level, in lists, in nested input objects and behind PrismGraphQLNullable")
    func paths() throws {
        let variables = Variables(
            file: Self.one, files: [Self.two, Self.one],
            input: Input(
                title: "t", cover: .value(Self.two),
                attachments: [Attachment(caption: "a", file: Self.one), Attachment(caption: "b", file: Self.two)]))
        let files = try PrismGraphQLUpload.files(in: variables)
        #expect(
            files.map(\.variable) == [
                "file", "files.0", "files.1", "input.cover", "input.attachments.0.file", "input.attachments.1.file",
            ])
        #expect(files.map(\.fileName) == ["one.txt", "two.png", "one.txt", "two.png", "one.txt", "two.png"])
        #expect(files.first?.mimeType == "text/plain")
    }

    @Test("an absent upload is no file; encoded as variables, an upload is null")
    func nullAndAbsent() throws {
        let variables = Variables(file: Self.one, files: [], input: Input(title: "t", attachments: []))
        #expect(try PrismGraphQLUpload.files(in: variables).map(\.variable) == ["file"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(variables), as: UTF8.self)
        #expect(json == #"{"file":null,"files":[],"input":{"attachments":[],"title":"t"}}"#)
    }

    @Test("a response cannot hold an upload: decoding one throws")
    func decoding() {
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode([PrismGraphQLUpload].self, from: Data("[null]".utf8))
        }
    }
}
