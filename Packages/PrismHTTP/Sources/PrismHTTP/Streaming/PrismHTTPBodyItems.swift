import Foundation

/// The items a streamed body holds (lines, JSON values, events), read as the body arrives: an
/// `AsyncSequence` made by ``PrismHTTPBodyStream/lines(maximumLineBytes:)``,
/// ``PrismHTTPBodyStream/jsonLines(of:decoder:maximumLineBytes:)`` or
/// ``PrismHTTPBodyStream/serverSentEvents(maximumEventBytes:)``.
///
/// Each item is handed on as soon as the bytes that complete it arrive; an item longer than its
/// bound throws ``PrismHTTPError`` (`responseTooLarge`) and closes the connection.
public struct PrismHTTPBodyItems<Item: Sendable>: AsyncSequence, Sendable {
    /// An item.
    public typealias Element = Item

    private let body: PrismHTTPBodyStream
    private let makeSplitter: @Sendable () -> Splitter

    fileprivate init(body: PrismHTTPBodyStream, makeSplitter: @escaping @Sendable () -> Splitter) {
        self.body = body
        self.makeSplitter = makeSplitter
    }

    /// An iterator over the stream: the stream is read once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: body.makeAsyncIterator(), splitter: makeSplitter())
    }

    /// Reads the items in order.
    public struct Iterator: AsyncIteratorProtocol {
        private var chunks: PrismHTTPBodyStream.Iterator
        private let splitter: Splitter
        private var pending: [Item] = []
        private var index = 0
        private var done = false

        fileprivate init(chunks: PrismHTTPBodyStream.Iterator, splitter: Splitter) {
            self.chunks = chunks
            self.splitter = splitter
        }

        /// The next one, nil at the end of the body.
        public mutating func next() async throws -> Item? {
            while true {
                if index < pending.count {
                    defer { index += 1 }
                    return pending[index]
                }
                if done { return nil }
                pending.removeAll(keepingCapacity: true)
                index = 0
                if let chunk = try await chunks.next() {
                    pending = try splitter.read(chunk)
                } else {
                    pending = try splitter.finish()
                    done = true
                }
            }
        }
    }

    /// One iterator's reader: what the chunks read so far left unfinished.
    fileprivate final class Splitter: @unchecked Sendable {
        let read: (Data) throws -> [Item]
        let finish: () throws -> [Item]

        init(read: @escaping (Data) throws -> [Item], finish: @escaping () throws -> [Item]) {
            self.read = read
            self.finish = finish
        }
    }
}

extension PrismHTTPBodyStream {
    /// The body's lines, as ``PrismLineReader`` splits them (LF or CRLF; a last line without a
    /// line break counts), each at most `maximumLineBytes`.
    public func lines(maximumLineBytes: Int = 1 << 20) -> PrismHTTPBodyItems<String> {
        PrismHTTPBodyItems(body: self) {
            var reader = PrismLineReader(maximumLineBytes: maximumLineBytes)
            return .init(read: { try reader.read($0) }, finish: { reader.finish().map { [$0] } ?? [] })
        }
    }

    /// The body as newline-delimited JSON: each line that is not blank decoded as `Value`, as
    /// ``PrismJSONLinesReader`` does.
    public func jsonLines<Value: Decodable & Sendable>(
        of type: Value.Type,
        decoder: JSONDecoder = PrismJSON.sharedDecoder,
        maximumLineBytes: Int = 1 << 20
    ) -> PrismHTTPBodyItems<Value> {
        PrismHTTPBodyItems(body: self) {
            var reader = PrismJSONLinesReader(of: Value.self, decoder: decoder, maximumLineBytes: maximumLineBytes)
            return .init(read: { try reader.read($0) }, finish: { try reader.finish().map { [$0] } ?? [] })
        }
    }

    /// The body as Server-Sent Events (`text/event-stream`), parsed by
    /// ``PrismServerSentEventParser``. For reconnection with `Last-Event-ID`, use
    /// ``PrismNetworkAdapter/events(on:options:lastEventID:reconnection:idleTimeout:maximumEventBytes:)``.
    public func serverSentEvents(maximumEventBytes: Int = 1 << 20) -> PrismHTTPBodyItems<PrismServerSentEvent> {
        PrismHTTPBodyItems(body: self) {
            var parser = PrismServerSentEventParser(maximumEventBytes: maximumEventBytes)
            return .init(
                read: { try parser.parse($0) },
                finish: {
                    parser.finish()
                    return []
                })
        }
    }
}
