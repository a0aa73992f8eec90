import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields and files, for uploads.
///
/// ```swift
/// var form = PrismMultipartFormData()
/// form.append(data: imageData, name: "avatar", fileName: "avatar.png", mimeType: "image/png")
/// form.append(string: "John Doe", name: "username")
/// try form.append(fileURL: videoURL, name: "video")   // streamed from disk, never loaded whole
///
/// let (body, contentType) = form.build()              // in memory
/// let stream = form.bodyStream()                      // or in chunks, for large files
/// ```
///
/// The boundary is random and checked against every part held in memory, so it cannot occur
/// in them (a file's bytes are not read ahead; a random 128-bit boundary makes a collision
/// vanishingly unlikely). Field names and file names are written as UTF-8, with `"`, CR and
/// LF percent-encoded so that no name can inject a header or a part.
public struct PrismMultipartFormData: Sendable {
    enum Content: Sendable {
        case data(Data)
        case file(URL, size: Int64)

        var size: Int64 {
            switch self {
            case .data(let data): return Int64(data.count)
            case .file(_, let size): return size
            }
        }
    }

    struct Part: Sendable {
        var name: String
        var fileName: String?
        var mimeType: String?
        var content: Content
    }

    /// The boundary between parts.
    public private(set) var boundary: String
    private(set) var parts: [Part] = []

    /// Creates an empty form with a random boundary.
    public init() {
        self.boundary = Self.randomBoundary()
    }

    /// Creates an empty form with `boundary` (replaced by a random one if a part contains it).
    public init(boundary: String) {
        self.boundary = boundary
    }

    /// Appends a part holding `data`: a file when `fileName` is given, a field otherwise.
    public mutating func append(data: Data, name: String, fileName: String? = nil, mimeType: String? = nil) {
        parts.append(Part(name: name, fileName: fileName, mimeType: mimeType, content: .data(data)))
        ensureBoundaryIsAbsent(from: data)
    }

    /// Appends a text field.
    public mutating func append(string: String, name: String) {
        append(data: Data(string.utf8), name: name)
    }

    /// Appends the file at `fileURL`, streamed from disk when the body is sent.
    ///
    /// - Parameters:
    ///   - fileURL: The file to send; read when the body is sent, never loaded whole.
    ///   - name: The form field's name.
    ///   - fileName: The file name sent; the URL's last component by default.
    ///   - mimeType: The part's content type; guessed from the extension by default.
    /// - Throws: ``PrismHTTPError`` when the file does not exist or is not readable.
    public mutating func append(fileURL: URL, name: String, fileName: String? = nil, mimeType: String? = nil) throws {
        let path = fileURL.path
        guard FileManager.default.isReadableFile(atPath: path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else {
            throw PrismHTTPError(
                code: .encodingFailed,
                message: "Cannot attach \(path) to the form: it is not a readable regular file.",
                url: fileURL
            )
        }
        parts.append(
            Part(
                name: name,
                fileName: fileName ?? fileURL.lastPathComponent,
                mimeType: mimeType ?? Self.mimeType(forExtension: fileURL.pathExtension),
                content: .file(fileURL, size: size)
            )
        )
    }

    /// The `Content-Type` header value: `multipart/form-data; boundary=...`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The body's exact size in bytes.
    public var contentLength: Int64 {
        parts.reduce(Int64(closing.utf8.count)) { total, part in
            total + Int64(header(for: part).utf8.count) + part.content.size + 2
        }
    }

    /// The whole body in memory, and its content type. Files are read into memory: prefer
    /// ``bodyStream(chunkSize:)`` for large ones.
    public func build() -> (body: Data, contentType: String) {
        var body = Data()
        body.reserveCapacity(Int(clamping: contentLength))
        for part in parts {
            body.append(Data(header(for: part).utf8))
            switch part.content {
            case .data(let data): body.append(data)
            case .file(let url, _): body.append((try? Data(contentsOf: url)) ?? Data())
            }
            body.append(Data("\r\n".utf8))
        }
        body.append(Data(closing.utf8))
        return (body, contentType)
    }

    /// The body as a sequence of chunks of at most `chunkSize` bytes, reading files as it goes:
    /// memory use stays at a chunk, whatever the size of the files.
    public func bodyStream(chunkSize: Int = 64 * 1_024) -> PrismMultipartBodyStream {
        PrismMultipartBodyStream(form: self, chunkSize: chunkSize)
    }

    func header(for part: Part) -> String {
        var disposition = "Content-Disposition: form-data; name=\"\(Self.escape(part.name))\""
        if let fileName = part.fileName { disposition += "; filename=\"\(Self.escape(fileName))\"" }
        var header = "--\(boundary)\r\n\(disposition)\r\n"
        if let mimeType = part.mimeType ?? (part.fileName != nil ? "application/octet-stream" : nil) {
            header += "Content-Type: \(Self.sanitizeHeaderValue(mimeType))\r\n"
        }
        return header + "\r\n"
    }

    var closing: String { "--\(boundary)--\r\n" }

    /// Percent-encodes `"`, CR and LF, as the HTML standard's form encoding does.
    static func escape(_ name: String) -> String {
        var escaped = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    static func sanitizeHeaderValue(_ value: String) -> String {
        String(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }.map(Character.init))
    }

    static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let random = String((0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
        return "prism-boundary-\(random)"
    }

    private mutating func ensureBoundaryIsAbsent(from data: Data) {
        while parts.contains(where: { part in
            if case .data(let bytes) = part.content { return bytes.range(of: Data(boundary.utf8)) != nil }
            return false
        }) {
            boundary = Self.randomBoundary()
        }
    }

    static func mimeType(forExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "heic": return "image/heic"
        case "svg": return "image/svg+xml"
        case "pdf": return "application/pdf"
        case "json": return "application/json"
        case "txt": return "text/plain"
        case "csv": return "text/csv"
        case "html", "htm": return "text/html"
        case "mp4": return "video/mp4"
        case "mov": return "video/quicktime"
        case "mp3": return "audio/mpeg"
        case "zip": return "application/zip"
        default: return "application/octet-stream"
        }
    }
}

/// The chunks of a ``PrismMultipartFormData`` body, reading files as it goes.
public struct PrismMultipartBodyStream: AsyncSequence, Sendable {
    /// One chunk of the body.
    public typealias Element = Data

    let form: PrismMultipartFormData
    let chunkSize: Int

    /// The body's size in bytes.
    public var contentLength: Int64 { form.contentLength }

    /// An iterator over the chunks.
    public func makeAsyncIterator() -> Iterator {
        Iterator(form: form, chunkSize: Swift.max(1, chunkSize))
    }

    /// Reads the body chunk by chunk.
    public struct Iterator: AsyncIteratorProtocol {
        private let form: PrismMultipartFormData
        private let chunkSize: Int
        private var partIndex = 0
        private var stage = Stage.header
        private var file: FileHandle?
        private var finished = false

        enum Stage {
            case header
            case content
            case trailer
        }

        init(form: PrismMultipartFormData, chunkSize: Int) {
            self.form = form
            self.chunkSize = chunkSize
        }

        /// The next chunk, or nil at the end.
        public mutating func next() async throws -> Data? {
            while !finished {
                try Task.checkCancellation()
                guard partIndex < form.parts.count else {
                    finished = true
                    return Data(form.closing.utf8)
                }
                let part = form.parts[partIndex]
                switch stage {
                case .header:
                    stage = .content
                    return Data(form.header(for: part).utf8)
                case .content:
                    switch part.content {
                    case .data(let data):
                        stage = .trailer
                        if !data.isEmpty { return data }
                    case .file(let url, _):
                        if file == nil {
                            do {
                                file = try FileHandle(forReadingFrom: url)
                            } catch {
                                throw PrismHTTPError(
                                    code: .encodingFailed,
                                    message: "Cannot read \(url.path) while sending the form: \(error)",
                                    url: url,
                                    underlying: error
                                )
                            }
                        }
                        if let chunk = try file?.read(upToCount: chunkSize), !chunk.isEmpty { return chunk }
                        try file?.close()
                        file = nil
                        stage = .trailer
                    }
                case .trailer:
                    stage = .header
                    partIndex += 1
                    return Data("\r\n".utf8)
                }
            }
            return nil
        }
    }
}
