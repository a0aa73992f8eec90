import NIOConcurrencyHelpers
import NIOCore

/// Precomputed bodies for `/json/:bytes`, `/large/:bytes` and `/drop-mid-body`.
///
/// The bodies are deterministic, so they are shared by every server in the process. A `ByteBuffer`
/// is copy-on-write: serving a cached body copies no bytes.
enum PayloadCache {
    /// The pattern's period: byte `i` of every pattern body is `i % 251`.
    static let patternPeriod = 251
    /// The size of the chunks `/large/:bytes` streams: a multiple of the period, so that every
    /// chunk but the last is the same buffer.
    static let chunkSize = patternPeriod * 256

    /// `chunkSize + patternPeriod` bytes of the pattern, so that any offset can be sliced from it.
    private static let patternSource: ByteBuffer = {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(chunkSize + patternPeriod)
        for index in 0..<(chunkSize + patternPeriod) {
            buffer.writeInteger(UInt8(index % patternPeriod))
        }
        return buffer
    }()

    /// One full chunk of the pattern, starting at a multiple of the period.
    static let patternChunk: ByteBuffer = patternSource.getSlice(at: 0, length: chunkSize)!

    /// `count` bytes of the pattern starting at body offset `offset` (`count` ≤ ``chunkSize``).
    static func pattern(offset: Int, count: Int) -> ByteBuffer {
        precondition(count <= chunkSize, "pattern(offset:count:) serves at most one chunk; loop for more")
        return patternSource.getSlice(at: offset % patternPeriod, length: count)!
    }

    // MARK: JSON

    /// JSON bodies up to this size are cached (per size, for every server in the process).
    static let largestCachedJSON = 1 << 20
    private static let maximumCachedJSONSizes = 64
    private static let jsonBodies = NIOLockedValueBox<[Int: ByteBuffer]>([:])

    /// A JSON object of exactly `bytes` bytes (or the smallest such object, ~45 bytes, when
    /// `bytes` is smaller): `{"id":1,"name":"payload-<bytes>","items":["item-0 ...",...]}`.
    static func json(bytes: Int) -> ByteBuffer {
        if bytes <= largestCachedJSON, let cached = jsonBodies.withLockedValue({ $0[bytes] }) {
            return cached
        }
        let body = makeJSON(bytes: bytes)
        if bytes <= largestCachedJSON {
            jsonBodies.withLockedValue { cache in
                if cache.count >= maximumCachedJSONSizes { cache.removeAll(keepingCapacity: true) }
                cache[bytes] = body
            }
        }
        return body
    }

    private static func makeJSON(bytes: Int) -> ByteBuffer {
        let prefix = "{\"id\":1,\"name\":\"payload-\(bytes)\",\"items\":["
        let suffix = "]}"
        var buffer = ByteBuffer()
        buffer.reserveCapacity(max(bytes, prefix.utf8.count + suffix.utf8.count))
        buffer.writeString(prefix)
        var remaining = bytes - prefix.utf8.count - suffix.utf8.count
        let itemLength = 48
        let filler = " lorem ipsum dolor sit amet consectetur adipiscing elit"
        func content(_ index: Int, length: Int) -> Substring {
            let text = "item-\(index)" + filler
            return text.prefix(length)
        }
        var index = 0
        while true {
            let separator = index == 0 ? 0 : 1
            // A full item, and room left for one more small one.
            if remaining >= separator + 2 + itemLength + 1 + 2 + 8 {
                if separator == 1 { buffer.writeInteger(UInt8(ascii: ",")) }
                buffer.writeString("\"\(content(index, length: itemLength))\"")
                remaining -= separator + 2 + itemLength
                index += 1
                continue
            }
            if remaining >= separator + 2 {
                let length = remaining - separator - 2
                if separator == 1 { buffer.writeInteger(UInt8(ascii: ",")) }
                var text = String(content(index, length: length))
                while text.utf8.count < length { text += "x" }
                buffer.writeString("\"\(text)\"")
            }
            break
        }
        buffer.writeString(suffix)
        return buffer
    }
}
