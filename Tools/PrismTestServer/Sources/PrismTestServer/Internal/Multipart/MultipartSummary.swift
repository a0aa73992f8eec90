import PrismSupport

/// What `POST /upload` reports about a multipart body: each part's name, file name, content type,
/// size and SHA-256, computed incrementally while the body streams through.
struct MultipartSummary: MultipartParserDelegate {
    /// The largest value of a field without a file name that is kept as text.
    static let maximumFieldBytes = 16 << 20

    struct Part {
        var name: String?
        var filename: String?
        var contentType: String?
        var contentDisposition: String?
        var size = 0
        var sha256 = ""
        /// The body of a field (a part without `filename`), as UTF-8 text.
        var value: String?
    }

    private(set) var parts: [Part] = []
    private var current: Part?
    private var hasher = SHA256()
    private var fieldBytes: [UInt8]?

    mutating func beginPart(headers: [(name: String, value: String)]) throws {
        var part = Part()
        for header in headers {
            switch header.name.lowercased() {
            case "content-disposition":
                let disposition = HeaderParameters(header.value)
                part.contentDisposition = header.value
                part.name = disposition.parameters["name"]
                part.filename = disposition.parameters["filename"]
            case "content-type":
                part.contentType = header.value
            default:
                break
            }
        }
        self.current = part
        self.hasher = SHA256()
        self.fieldBytes = part.filename == nil ? [] : nil
    }

    mutating func partBody(_ bytes: UnsafeRawBufferPointer) throws {
        self.hasher.update(bufferPointer: bytes)
        self.current?.size += bytes.count
        if self.fieldBytes != nil {
            guard self.fieldBytes!.count + bytes.count <= Self.maximumFieldBytes else {
                throw MultipartParser.Error(
                    description: "a field without a filename is larger than \(Self.maximumFieldBytes) bytes"
                )
            }
            self.fieldBytes!.append(contentsOf: bytes)
        }
    }

    mutating func endPart() throws {
        guard var part = self.current else { return }
        part.sha256 = Self.hex(self.hasher.finalize())
        if let fieldBytes = self.fieldBytes {
            part.value = String(decoding: fieldBytes, as: UTF8.self)
        }
        self.parts.append(part)
        self.current = nil
        self.fieldBytes = nil
    }

    /// Lowercase hexadecimal of `bytes`.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var output: [UInt8] = []
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `{"fields", "files", "parts", "bodyLength"}`.
    func json(bodyLength: Int) -> JSONValue {
        var fields: [String: String] = [:]
        for part in self.parts where part.filename == nil {
            fields[part.name ?? ""] = part.value ?? ""
        }
        let files: [JSONValue] = self.parts.filter { $0.filename != nil }.map { part in
            [
                "name": .string(part.name),
                "filename": .string(part.filename),
                "contentType": .string(part.contentType),
                "size": .int(part.size),
                "sha256": .string(part.sha256),
            ]
        }
        let parts: [JSONValue] = self.parts.map { part in
            [
                "name": .string(part.name),
                "filename": .string(part.filename),
                "contentType": .string(part.contentType),
                "contentDisposition": .string(part.contentDisposition),
                "size": .int(part.size),
                "sha256": .string(part.sha256),
            ]
        }
        return [
            "fields": .object(sorted: fields),
            "files": .array(files),
            "parts": .array(parts),
            "bodyLength": .int(bodyLength),
        ]
    }
}
