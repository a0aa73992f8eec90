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
/// let (checked, type) = try form.encoded()            // in memory, throwing if a file is unreadable
/// let stream = form.bodyStream()                      // or in chunks, for large files
/// ```
///
/// The boundary is random and checked against every part held in memory, so it cannot occur
/// in them (a file's bytes are not read ahead; a random 128-bit boundary makes a collision
/// vanishingly unlikely). A boundary of your own must be valid per RFC 2046
/// (``init(boundary:)`` throws otherwise). Field names and file names are written as UTF-8, with
/// `"`, CR, LF and NUL percent-encoded so that no name can inject a header or a part.
///
/// A file part is read when the body is sent, so the file can go away or change in between:
/// every way of sending checks first that each file is still a readable regular file of the size
/// it had when appended (``validateFiles()``), and fails with `encodingFailed` before a byte is
/// sent when one is not; a file that shrinks while it is being sent fails the send.
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

    /// Creates an empty form with `boundary` (replaced by a random one if a part held in memory
    /// contains it).
    ///
    /// - Throws: ``PrismHTTPError`` with code `encodingFailed` when `boundary` is not a valid
    ///   RFC 2046 boundary: 1 to 70 characters among letters, digits, space and `'()+_,-./:=?`,
    ///   not ending with a space.
    public init(boundary: String) throws(PrismHTTPError) {
        guard Self.isValidBoundary(boundary) else {
            throw PrismHTTPError(
                code: .encodingFailed,
                message: "\(RequestValidation.escaped(boundary)) is not a multipart boundary: use 1 to 70 letters, "
                    + "digits, spaces and '()+_,-./:=? (RFC 2046), not ending with a space."
            )
        }
        self.boundary = boundary
    }

    /// Whether `boundary` is a valid RFC 2046 boundary.
    static func isValidBoundary(_ boundary: String) -> Bool {
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count), bytes.last != UInt8(ascii: " ") else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return " '()+_,-./:=?".utf8.contains(byte)
            }
        }
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
        guard let size = Self.regularFileSize(fileURL) else {
            throw PrismHTTPError(
                code: .encodingFailed,
                message: "Cannot attach \(fileURL.lastPathComponent) to the form: it is not a readable regular file.",
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

    /// The `Content-Type` header value: `multipart/form-data; boundary=...` (the boundary quoted
    /// when it holds characters a header parameter cannot carry bare).
    public var contentType: String {
        let bare = boundary.utf8.allSatisfy { RequestValidation.isToken(String(UnicodeScalar($0))) }
        return "multipart/form-data; boundary=" + (bare ? boundary : "\"\(boundary)\"")
    }

    /// The body's exact size in bytes.
    public var contentLength: Int64 {
        parts.reduce(Int64(closing.utf8.count)) { total, part in
            total + Int64(header(for: part).utf8.count) + part.content.size + 2
        }
    }

    /// The whole body in memory, and its content type. Files are read into memory: prefer
    /// ``bodyStream(chunkSize:)`` for large ones, and ``encoded()`` when the form has files.
    ///
    /// A file part that can no longer be read (or whose size changed since it was appended)
    /// makes the body empty, never a form with a missing or truncated file: ``encoded()`` says
    /// why.
    public func build() -> (body: Data, contentType: String) {
        (try? encoded()) ?? (Data(), contentType)
    }

    /// The whole body in memory, and its content type, reading every file part.
    ///
    /// - Throws: ``PrismHTTPError`` with code `encodingFailed` when a file part can no longer
    ///   be read, or its size changed since it was appended.
    public func encoded() throws(PrismHTTPError) -> (body: Data, contentType: String) {
        try validateFiles()
        var body = Data()
        body.reserveCapacity(Int(clamping: contentLength))
        for part in parts {
            body.append(Data(header(for: part).utf8))
            switch part.content {
            case .data(let data):
                body.append(data)
            case .file(let url, let size):
                let data: Data
                do {
                    data = try Data(contentsOf: url)
                } catch {
                    throw Self.unreadable(url, reason: "it cannot be read", underlying: error)
                }
                guard Int64(data.count) == size else {
                    throw Self.unreadable(url, reason: "its size changed since it was appended")
                }
                body.append(data)
            }
            body.append(Data("\r\n".utf8))
        }
        body.append(Data(closing.utf8))
        return (body, contentType)
    }

    /// Checks that every file part is still a readable regular file of the size it had when it
    /// was appended.
    ///
    /// - Throws: ``PrismHTTPError`` with code `encodingFailed` naming the first file that is not.
    public func validateFiles() throws(PrismHTTPError) {
        for part in parts {
            guard case .file(let url, let size) = part.content else { continue }
            switch Self.regularFileSize(url) {
            case nil:
                throw Self.unreadable(url, reason: "it is no longer a readable regular file")
            case let current? where current != size:
                throw Self.unreadable(
                    url, reason: "its size changed since it was appended (\(size) → \(current) bytes)")
            default:
                continue
            }
        }
    }

    /// The size of the readable regular file at `url`, or nil when it is not one.
    static func regularFileSize(_ url: URL) -> Int64? {
        let path = url.path
        guard FileManager.default.isReadableFile(atPath: path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else { return nil }
        return size
    }

    static func unreadable(_ url: URL, reason: String, underlying: (any Error)? = nil) -> PrismHTTPError {
        PrismHTTPError(
            code: .encodingFailed,
            message: "Cannot send the file \(url.lastPathComponent) of the form: \(reason). Nothing was sent.",
            url: url,
            underlying: underlying
        )
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

    /// Percent-encodes `"`, CR and LF, as the HTML standard's form encoding does, and NUL.
    static func escape(_ name: String) -> String {
        var escaped = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            case "\0": escaped += "%00"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `value` without its control characters (but HTAB).
    static func sanitizeHeaderValue(_ value: String) -> String {
        String(
            value.unicodeScalars.filter { $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) }.map(Character.init))
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
