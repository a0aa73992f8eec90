import Foundation
import PrismCache
import PrismSupport

/// How an endpoint's parts become a URL, with every part checked: nothing an endpoint's values
/// hold can crash the process, change the URL's structure (a host with a `/` or `@`, a query
/// value with `&`), or climb the path (a `..` segment).
enum URLBuilding {
    /// What ``PrismNetworkEndpoint/url`` is when the endpoint's parts make no URL.
    static let invalidURL = URL(string: "about:blank")!

    static func url(
        scheme: PrismNetworkScheme,
        host: String,
        port: Int?,
        path: String,
        queryItems: [URLQueryItem]?
    ) throws(PrismHTTPError) -> URL {
        try built(scheme: scheme, host: host, port: port, path: path, queryItems: queryItems).url
    }

    /// The URL of the parts, and the cache key of a `GET` of it without credentials
    /// (``PrismCacheKey/http(for:)``), made once per URL.
    static func built(
        scheme: PrismNetworkScheme,
        host: String,
        port: Int?,
        path: String,
        queryItems: [URLQueryItem]?
    ) throws(PrismHTTPError) -> (url: URL, getKey: PrismCacheKey) {
        // The same parts make the same URL, checked the same way: an app sends the same few
        // again and again (a cache hit above all), and checking and encoding cost more than a
        // lookup by the parts.
        let parts = BuiltURLs.Parts(scheme: scheme, host: host, port: port, path: path, queryItems: queryItems)
        if let kept = BuiltURLs.shared.kept(for: parts) { return kept }
        let url = try build(scheme: scheme, host: host, port: port, path: path, queryItems: queryItems)
        let getKey = PrismCacheKey.http(method: .get, url: url, digest: nil)
        BuiltURLs.shared.keep(url, getKey: getKey, for: parts)
        return (url, getKey)
    }

    private static func build(
        scheme: PrismNetworkScheme,
        host: String,
        port: Int?,
        path: String,
        queryItems: [URLQueryItem]?
    ) throws(PrismHTTPError) -> URL {
        func invalid(_ reason: String) -> PrismHTTPError {
            PrismHTTPError(
                code: .invalidURL,
                message: "The endpoint's parts do not make a URL: \(reason) "
                    + "(scheme \(scheme.rawValue), host \(RequestValidation.escaped(host)), "
                    + "path \(RequestValidation.escaped(path)))."
            )
        }
        guard isValidHost(host) else { throw invalid("the host is empty or holds characters a host cannot") }
        if let port, !(1...65_535).contains(port) { throw invalid("the port \(port) is not from 1 to 65535") }
        let encodedPath = encodePath(path.hasPrefix("/") || path.isEmpty ? path : "/" + path)
        guard !hasDotSegment(encodedPath) else {
            throw invalid("the path has a \".\" or \"..\" segment, which would climb out of the endpoint")
        }
        let query = queryItems.flatMap { $0.isEmpty ? nil : encodeQuery($0) }
        // Every part is checked and encoded above: an ASCII host makes the URL from its text at
        // once (URLComponents costs several times more, on every request and every cache hit).
        if host.utf8.allSatisfy({ $0 < 0x80 }) {
            var text = ""
            text.reserveCapacity(16 + host.utf8.count + encodedPath.utf8.count + (query?.utf8.count ?? 0))
            text += scheme.rawValue
            text += "://"
            text += host
            if let port {
                text += ":"
                text += String(port)
            }
            text += encodedPath
            if let query {
                text += "?"
                text += query
            }
            if let url = URL(string: text) { return url }
        }
        var components = URLComponents()
        components.scheme = scheme.rawValue
        components.host = host
        components.port = port
        components.percentEncodedPath = encodedPath
        components.percentEncodedQuery = query
        guard let url = components.url else { throw invalid("Foundation refuses them") }
        return url
    }

    /// A DNS name (ASCII letters, digits, `-`, `_`, `.`, or non-ASCII letters of an
    /// internationalized name) or a bracketed IPv6 literal.
    static func isValidHost(_ host: String) -> Bool {
        let bytes = host.utf8
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        if bytes.first == UInt8(ascii: "[") {
            guard bytes.last == UInt8(ascii: "]"), bytes.count > 2 else { return false }
            return bytes.dropFirst().dropLast().allSatisfy { byte in
                isHex(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
            }
        }
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return bytes.allSatisfy { byte in
                PrismPath.isUnreserved(byte) && byte != UInt8(ascii: "~")
            }
        }
        return host.unicodeScalars.allSatisfy { scalar in
            if scalar.value > 0x7F { return scalar.properties.isAlphabetic || scalar.properties.numericType != nil }
            return scalar.isASCII && PrismPath.isUnreserved(UInt8(scalar.value)) && scalar != "~"
        }
    }

    /// `path` with every character a path cannot hold percent-encoded as UTF-8; `%XX` escapes
    /// (such as those of ``PrismPath/segment(_:)``) are kept as they are, a lone `%` is encoded.
    static func encodePath(_ path: String) -> String {
        // Most paths need nothing: they are returned as they are.
        if path.utf8.allSatisfy({ isPathByte($0) }) { return path }
        let bytes = Array(path.utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                encoded.append(contentsOf: bytes[index...(index + 2)])
                index += 3
                continue
            }
            if isPathByte(byte) {
                encoded.append(byte)
            } else {
                encoded.append(contentsOf: PrismPath.percentEncoded(byte).utf8)
            }
            index += 1
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Whether `byte` may stand as it is in a path: unreserved, a sub-delimiter, `:`, `@`, `/`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        if PrismPath.isUnreserved(byte) { return true }
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
            UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }

    /// Whether an encoded path has a `.` or `..` segment, written plainly or percent-encoded.
    static func hasDotSegment(_ encodedPath: String) -> Bool {
        var path = encodedPath
        return path.withUTF8 { bytes in
            // One pass, no allocation: count the dots of each segment while it holds nothing else.
            var dots = 0
            var onlyDots = true
            var index = 0
            while index <= bytes.count {
                if index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                    if onlyDots && (dots == 1 || dots == 2) { return true }
                    dots = 0
                    onlyDots = true
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: ".") {
                    dots += 1
                    index += 1
                } else if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                    bytes[index + 1] == UInt8(ascii: "2"),
                    bytes[index + 2] | 0x20 == UInt8(ascii: "e")
                {
                    dots += 1
                    index += 3
                } else {
                    onlyDots = false
                    index += 1
                }
            }
            return false
        }
    }

    /// The query with every name and value percent-encoded but the unreserved characters: `+`
    /// (which servers read as a space), `&`, `=` and `#` cannot change the query's meaning.
    static func encodeQuery(_ items: [URLQueryItem]) -> String {
        items.map { item in
            let name = PrismPath.segment(item.name)
            guard let value = item.value else { return name }
            return name + "=" + PrismPath.segment(value)
        }.joined(separator: "&")
    }

    static func isHex(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}

/// The URLs the client built lately, by the parts they were built of (only parts that made a
/// valid URL are kept): 256 slots, each holding the last parts that fell into it.
///
/// A slot is picked by an FNV-1a hash of the parts' bytes, not by `Hasher`: on a cache hit the
/// lookup is a good part of the whole request, and a seeded SipHash of host and path cost more
/// than the rest of it. Parts that collide only evict each other (the URL is built again), so a
/// weak hash can slow the memo down, never make it answer wrongly: the parts are compared whole.
final class BuiltURLs: Sendable {
    struct Parts: Equatable {
        var scheme: PrismNetworkScheme
        var host: String
        var port: Int?
        var path: String
        var queryItems: [URLQueryItem]?

        /// The slot of these parts, 0..<256.
        var slot: Int {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            Self.add(scheme.rawValue, to: &hash)
            Self.add(host, to: &hash)
            Self.add(path, to: &hash)
            if let port { Self.add(UInt64(truncatingIfNeeded: port), to: &hash) }
            for item in queryItems ?? [] {
                Self.add(item.name, to: &hash)
                Self.add(item.value ?? "", to: &hash)
            }
            return Int(truncatingIfNeeded: (hash ^ (hash >> 32)) & 0xff)
        }

        @inline(__always)
        private static func add(_ word: UInt64, to hash: inout UInt64) {
            hash = (hash ^ word) &* 0x100_0000_01b3
        }

        private static func add(_ text: String, to hash: inout UInt64) {
            // The contiguous bytes when the string has them (literals and most strings do).
            let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
                for byte in bytes { add(UInt64(byte), to: &hash) }
            }
            if done == nil {
                for byte in text.utf8 { add(UInt64(byte), to: &hash) }
            }
            add(0x100, to: &hash)
        }
    }

    private struct Kept {
        var parts: Parts
        var url: URL
        var getKey: PrismCacheKey
    }

    static let shared = BuiltURLs()

    /// One slot per hash value, behind the memo's lock.
    private let slots = PrismLocked([Kept?](repeating: nil, count: 256))

    func kept(for parts: Parts) -> (url: URL, getKey: PrismCacheKey)? {
        let slot = parts.slot
        return slots.withLock { slots in
            guard let kept = slots[slot], kept.parts == parts else { return nil }
            return (kept.url, kept.getKey)
        }
    }

    func keep(_ url: URL, getKey: PrismCacheKey, for parts: Parts) {
        let slot = parts.slot
        slots.withLock { $0[slot] = Kept(parts: parts, url: url, getKey: getKey) }
    }
}
