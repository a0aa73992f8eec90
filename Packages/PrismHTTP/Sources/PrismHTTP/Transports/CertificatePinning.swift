import Foundation
import PrismSupport

/// The rules of pinning, in one place, for every transport and the subscription socket.
///
/// | Question | Answer | Why |
/// | --- | --- | --- |
/// | Which certificate is hashed? | The server's own (the leaf) | The only one every transport is shown after its handshake (AsyncHTTPClient exposes no chain) |
/// | What is hashed? | Its SubjectPublicKeyInfo, whole DER | The key survives a renewed certificate; the same value OkHttp, HPKP and `openssl` give |
/// | Which pins apply to a host? | Those of every pattern that matches it | `api.example.com` and `**.example.com` can both pin one host |
/// | `*.example.com` | One label before `example.com` | OkHttp's rule: not `example.com`, not `a.b.example.com` |
/// | `**.example.com` | `example.com` and any name under it | |
/// | A host with no matching pattern | Not pinned: the trust roots decide alone | |
/// | A pinned host over plain HTTP | Refused, nothing sent | A pin promises that only that key's holder reads the request |
/// | When is it checked? | After the chain and host name verified, before the request is written | A credential never reaches a server that fails its pin |
/// | Host names | Lowercased, trailing dot and IPv6 brackets dropped | `API.example.com.` is `api.example.com` |
@_spi(PrismInternals)
public enum CertificatePinning {
    /// The error for a server whose key matches none of its host's pins.
    public static func mismatch(host: String, presented: String?, expected: Set<String>, url: URL?) -> PrismHTTPError {
        let key = presented.map { "sha256/\($0)" } ?? "no certificate"
        return PrismHTTPError(
            code: .pinMismatch,
            message: "The certificate of \(host) matches none of its pins: the server presented \(key), "
                + "the pins are \(expected.sorted().map { "sha256/\($0)" }.joined(separator: ", ")). Nothing was sent.",
            url: url
        )
    }

    /// The error for a pinned host reached over plain HTTP.
    public static func cleartext(host: String, url: URL?) -> PrismHTTPError {
        PrismHTTPError(
            code: .pinMismatch,
            message: "\(host) has pins, and the request is not over TLS: use https (or wss). Nothing was sent.",
            url: url
        )
    }

    /// Checks the server certificate `leafDER` of `host` against `configuration`'s pins: nil
    /// when the host is not pinned or its key matches a pin, else the error to fail with.
    public static func check(
        host: String, leafDER: Data?, configuration: PrismTLSConfiguration, url: URL?
    ) -> PrismHTTPError? {
        check(host: host, leafDER: leafDER, expected: configuration.pins(for: host), url: url)
    }

    /// Checks the server certificate `leafDER` of `host` against the SHA-256 hashes (base64) of
    /// its pins, `expected`: nil when there are none or the key matches one, else the error.
    public static func check(host: String, leafDER: Data?, expected: Set<String>, url: URL?) -> PrismHTTPError? {
        guard !expected.isEmpty else { return nil }
        let presented = leafDER.flatMap(subjectPublicKeyInfo(ofCertificate:)).map(sha256Base64(of:))
        if let presented, expected.contains(presented) { return nil }
        return mismatch(host: normalized(host), presented: presented, expected: expected, url: url)
    }

    static func invalid(_ message: String) -> PrismHTTPError {
        PrismHTTPError(code: .invalidTLSConfiguration, message: message)
    }

    /// `host` lowercased, without IPv6 brackets or a trailing dot.
    static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }

    /// A pattern is a name, or `*.` / `**.` followed by a name with no other wildcard.
    static func isValidPattern(_ pattern: String) -> Bool {
        var name = Substring(pattern)
        if name.hasPrefix("**.") {
            name = name.dropFirst(3)
        } else if name.hasPrefix("*.") {
            name = name.dropFirst(2)
        }
        return !name.isEmpty && !name.contains("*") && !name.hasPrefix(".") && !name.contains("..")
    }

    /// Whether `pattern` covers `host` (both normalized).
    static func pattern(_ pattern: String, matches host: String) -> Bool {
        if pattern.hasPrefix("**.") {
            let suffix = pattern.dropFirst(3)
            return host == suffix || host.hasSuffix("." + suffix)
        }
        if pattern.hasPrefix("*.") {
            let suffix = pattern.dropFirst(1)  // ".example.com"
            guard host.hasSuffix(suffix) else { return false }
            let label = host.dropLast(suffix.count)
            return !label.isEmpty && !label.contains(".")
        }
        return pattern == host
    }

    /// Base64 of the SHA-256 of `bytes`.
    static func sha256Base64(of bytes: some DataProtocol) -> String {
        Data(SHA256.hash(data: bytes)).base64EncodedString()
    }

    /// The DER bodies of every `-----BEGIN <label>-----` block of `pem`, in order.
    ///
    /// - Throws: A block whose body is not base64, or that has no end line.
    static func pemBlocks(_ pem: String, label: String) throws -> [Data] {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        var blocks: [Data] = []
        var rest = Substring(pem)
        while let start = rest.range(of: begin) {
            guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else {
                throw invalid("A \(label) block of the PEM text has no end line.")
            }
            let body = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            guard let bytes = Data(base64Encoded: String(body)), !bytes.isEmpty else {
                throw invalid("A \(label) block of the PEM text is not base64.")
            }
            blocks.append(bytes)
            rest = rest[stop.upperBound...]
        }
        return blocks
    }

    /// The SubjectPublicKeyInfo of a DER certificate, whole (tag and length included), or nil
    /// when the bytes are not a certificate.
    ///
    /// RFC 5280, 4.1: Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL,
    /// serialNumber INTEGER, signature SEQUENCE, issuer SEQUENCE, validity SEQUENCE,
    /// subject SEQUENCE, subjectPublicKeyInfo SEQUENCE, ... }, ... }.
    static func subjectPublicKeyInfo(ofCertificate der: Data) -> Data? {
        let bytes = [UInt8](der)
        guard let certificate = DER.element(bytes, at: 0), certificate.tag == 0x30,
            certificate.end == bytes.count,
            let tbs = DER.element(bytes, at: certificate.contentStart), tbs.tag == 0x30
        else { return nil }
        var position = tbs.contentStart
        guard var field = DER.element(bytes, at: position) else { return nil }
        if field.tag == 0xA0 {  // version
            position = field.end
            guard let next = DER.element(bytes, at: position) else { return nil }
            field = next
        }
        // serialNumber, signature, issuer, validity, subject, then the key.
        let expected: [UInt8] = [0x02, 0x30, 0x30, 0x30, 0x30, 0x30]
        for (index, tag) in expected.enumerated() {
            guard field.tag == tag, field.end <= tbs.end else { return nil }
            if index == expected.count - 1 { return Data(bytes[position..<field.end]) }
            position = field.end
            guard let next = DER.element(bytes, at: position) else { return nil }
            field = next
        }
        return nil
    }

    /// Just enough DER: one element's tag and extent.
    private enum DER {
        struct Element {
            var tag: UInt8
            var contentStart: Int
            var end: Int
        }

        /// The element at `offset`, or nil when its header or length runs past the bytes.
        static func element(_ bytes: [UInt8], at offset: Int) -> Element? {
            guard offset + 2 <= bytes.count else { return nil }
            let tag = bytes[offset]
            guard tag & 0x1F != 0x1F else { return nil }  // multi-byte tags never appear here
            var position = offset + 1
            var length = Int(bytes[position])
            position += 1
            if length & 0x80 != 0 {
                let count = length & 0x7F
                guard (1...4).contains(count), position + count <= bytes.count else { return nil }
                length = 0
                for byte in bytes[position..<position + count] { length = length << 8 | Int(byte) }
                position += count
            }
            guard length <= bytes.count - position else { return nil }
            return Element(tag: tag, contentStart: position, end: position + length)
        }
    }
}
