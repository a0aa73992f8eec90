import Foundation

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
        private var fileRemaining: Int64 = 0
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
                    case .file(let url, let size):
                        if file == nil {
                            do {
                                file = try FileHandle(forReadingFrom: url)
                                fileRemaining = size
                            } catch {
                                throw PrismMultipartFormData.unreadable(
                                    url, reason: "it cannot be opened", underlying: error)
                            }
                        }
                        if fileRemaining > 0 {
                            // Never more than the size announced in the body's length.
                            let count = Int(Swift.min(Int64(chunkSize), fileRemaining))
                            let chunk = try file?.read(upToCount: count) ?? Data()
                            guard !chunk.isEmpty else {
                                try? file?.close()
                                file = nil
                                throw PrismMultipartFormData.unreadable(
                                    url, reason: "it shrank while it was being sent")
                            }
                            fileRemaining -= Int64(chunk.count)
                            return chunk
                        }
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
