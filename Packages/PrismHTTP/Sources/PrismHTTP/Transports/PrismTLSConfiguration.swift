import Foundation

/// Whom a transport trusts on a TLS connection, and how it proves who it is: the trust roots, the
/// public keys pinned per host, a client certificate for mutual TLS, and the oldest TLS version
/// spoken.
///
/// Set it on ``PrismTransportConfiguration/tls``. ``PrismAsyncHTTPClientTransport`` applies it to
/// every request, PrismGraphQL's subscription socket to every `wss` connection, and
/// ``PrismURLSessionTransport`` on Apple platforms in its authentication challenge.
///
/// ```swift
/// let tls = PrismTLSConfiguration(
///     trustRoots: .systemAnd([try PrismCertificate(pem: companyRootPEM)]),
///     pins: [try PrismCertificatePin(host: "api.example.com", sha256: [currentKey, backupKey])],
///     minimumVersion: .tls13
/// )
/// let transport = PrismAsyncHTTPClientTransport(configuration: PrismTransportConfiguration(tls: tls))
/// ```
///
/// A pin is checked after the certificate chain has been verified against the trust roots and
/// the host name, before a byte of the request is sent: a server whose certificate's public key
/// matches none of its host's pins fails the request with
/// ``PrismHTTPError/Code-swift.struct/pinMismatch``, whose message names the host and the key the
/// server presented.
public struct PrismTLSConfiguration: Sendable, Hashable {
    /// The certificates a server's chain may end at.
    public enum TrustRoots: Sendable, Hashable {
        /// The system's trust store.
        case system
        /// The system's trust store and these certificates (a company's private authority).
        case systemAnd([PrismCertificate])
        /// These certificates only: the system's trust store is not consulted.
        case only([PrismCertificate])
    }

    /// The certificates a server's chain may end at; the system's by default.
    public var trustRoots: TrustRoots
    /// Public keys pinned per host; none by default.
    ///
    /// Each pin is the SHA-256 of the *server certificate's* SubjectPublicKeyInfo (the leaf, not
    /// an intermediate or root authority): pin the key the server uses today and a backup key
    /// kept offline, so that a new certificate does not lock the app out.
    public var pins: [PrismCertificatePin]
    /// The certificate and key presented when a server asks for one (mutual TLS); none by
    /// default.
    public var clientIdentity: PrismClientIdentity?
    /// The oldest TLS version spoken; TLS 1.2 by default.
    public var minimumVersion: PrismTLSVersion

    /// Creates settings; the defaults are the system's trust store, no pins, no client
    /// certificate and TLS 1.2 or newer.
    public init(
        trustRoots: TrustRoots = .system,
        pins: [PrismCertificatePin] = [],
        clientIdentity: PrismClientIdentity? = nil,
        minimumVersion: PrismTLSVersion = .tls12
    ) {
        self.trustRoots = trustRoots
        self.pins = pins
        self.clientIdentity = clientIdentity
        self.minimumVersion = minimumVersion
    }

    /// The defaults.
    public static var `default`: Self { Self() }

    /// The pins of `host`: those of every pattern that matches it. Empty when the host is not
    /// pinned.
    public func pins(for host: String) -> Set<String> {
        guard !pins.isEmpty else { return [] }
        let host = CertificatePinning.normalized(host)
        var matching: Set<String> = []
        for pin in pins where pin.matches(host: host) { matching.formUnion(pin.sha256) }
        return matching
    }
}

/// A TLS protocol version.
public enum PrismTLSVersion: Sendable, Hashable, Comparable {
    /// TLS 1.2.
    case tls12
    /// TLS 1.3.
    case tls13
}

/// An X.509 certificate, kept as its DER bytes.
///
/// ```swift
/// let root = try PrismCertificate(pem: String(contentsOf: rootURL, encoding: .utf8))
/// ```
public struct PrismCertificate: Sendable, Hashable {
    /// The certificate's DER encoding.
    public let derBytes: Data
    /// The SHA-256 of its SubjectPublicKeyInfo, base64: the value to pin
    /// (``PrismCertificatePin``).
    public let publicKeySHA256: String

    /// A certificate from its DER encoding.
    ///
    /// - Throws: ``PrismHTTPError`` with code
    ///   ``PrismHTTPError/Code-swift.struct/invalidTLSConfiguration`` when the bytes are not an
    ///   X.509 certificate.
    public init(derBytes: Data) throws {
        guard let key = CertificatePinning.subjectPublicKeyInfo(ofCertificate: derBytes) else {
            throw CertificatePinning.invalid("The bytes are not a DER-encoded X.509 certificate.")
        }
        self.derBytes = derBytes
        self.publicKeySHA256 = CertificatePinning.sha256Base64(of: key)
    }

    /// The first certificate of a PEM text (`-----BEGIN CERTIFICATE-----`...).
    ///
    /// - Throws: ``PrismHTTPError`` with code
    ///   ``PrismHTTPError/Code-swift.struct/invalidTLSConfiguration`` when the text holds no
    ///   certificate or a block that does not decode.
    public init(pem: String) throws {
        guard let first = try Self.all(pem: pem).first else {
            throw CertificatePinning.invalid("The PEM text holds no CERTIFICATE block.")
        }
        self = first
    }

    /// Every certificate of a PEM text, in order (a chain, or a bundle of roots).
    ///
    /// - Throws: ``PrismHTTPError`` with code
    ///   ``PrismHTTPError/Code-swift.struct/invalidTLSConfiguration`` when a CERTIFICATE block
    ///   does not decode.
    public static func all(pem: String) throws -> [PrismCertificate] {
        try CertificatePinning.pemBlocks(pem, label: "CERTIFICATE").map { try PrismCertificate(derBytes: $0) }
    }
}

/// The public keys a host's certificate may carry: SHA-256 hashes of SubjectPublicKeyInfo,
/// base64, as OkHttp, HPKP and `openssl` print them.
///
/// ```swift
/// // openssl x509 -in server.pem -pubkey -noout | openssl pkey -pubin -outform der \
/// //     | openssl dgst -sha256 -binary | base64
/// let pin = try PrismCertificatePin(
///     host: "**.example.com", sha256: ["biwTCJIKSdJhbC7tjFWnQNrdSrfzhTQFiNtgERmfWjE=", backupKey])
/// ```
public struct PrismCertificatePin: Sendable, Hashable {
    /// The host pattern: `api.example.com` (that host), `*.example.com` (one label before
    /// `example.com`) or `**.example.com` (`example.com` and any name under it). Lowercase.
    public let host: String
    /// The accepted hashes, base64 (without the `sha256/` prefix).
    public let sha256: Set<String>

    /// Pins `host` (a name or a pattern) to `sha256`, hashes in base64, with or without OkHttp's
    /// `sha256/` prefix.
    ///
    /// - Throws: ``PrismHTTPError`` with code
    ///   ``PrismHTTPError/Code-swift.struct/invalidTLSConfiguration`` when the pattern is empty
    ///   or has a wildcard anywhere but its first label, when no hash is given, or when a hash is
    ///   not the base64 of 32 bytes.
    public init(host: String, sha256: [String]) throws {
        let pattern = CertificatePinning.normalized(host)
        guard CertificatePinning.isValidPattern(pattern) else {
            throw CertificatePinning.invalid(
                "'\(host)' is not a host pattern: use a name, *.name (one label) or **.name (any).")
        }
        guard !sha256.isEmpty else {
            throw CertificatePinning.invalid("The pin of \(pattern) lists no hash: a host with no pin cannot connect.")
        }
        var hashes: Set<String> = []
        for value in sha256 {
            let hash = value.hasPrefix("sha256/") ? String(value.dropFirst("sha256/".count)) : value
            guard let bytes = Data(base64Encoded: hash), bytes.count == 32 else {
                throw CertificatePinning.invalid(
                    "The pin '\(value)' of \(pattern) is not the base64 of a SHA-256 hash (32 bytes).")
            }
            hashes.insert(bytes.base64EncodedString())
        }
        self.host = pattern
        self.sha256 = hashes
    }

    /// Pins `host` to the public keys of `certificates`.
    ///
    /// - Throws: As ``init(host:sha256:)``.
    public init(host: String, certificates: [PrismCertificate]) throws {
        try self.init(host: host, sha256: certificates.map(\.publicKeySHA256))
    }

    /// Whether `host` (lowercase, no trailing dot) is one this pin's pattern covers.
    func matches(host: String) -> Bool {
        CertificatePinning.pattern(self.host, matches: host)
    }
}

/// The certificate and private key a client presents when a server asks for one (mutual TLS).
///
/// ```swift
/// let identity = try PrismClientIdentity(certificateChainPEM: chainPEM, privateKeyPEM: keyPEM)
/// // or, as Apple's platforms prefer:
/// let bundled = PrismClientIdentity(pkcs12: p12Data, passphrase: "secret")
/// ```
///
/// ``PrismURLSessionTransport`` on Apple platforms takes a PKCS#12 bundle only (the Security
/// framework imports identities that way); ``PrismAsyncHTTPClientTransport`` and PrismGraphQL's
/// subscription socket take both.
public struct PrismClientIdentity: Sendable, Hashable {
    /// How the identity is held.
    enum Material: Sendable, Hashable {
        /// A certificate chain (leaf first) and the PEM of its key.
        case pem(chain: [PrismCertificate], privateKeyPEM: String)
        /// A PKCS#12 bundle and its passphrase.
        case pkcs12(Data, passphrase: String)
    }

    /// How the identity is held.
    let material: Material

    /// Hands the identity's material to the one closure that fits how it is held: `pem` with the
    /// certificate chain (leaf first) and the private key's PEM text, or `pkcs12` with the bundle
    /// and its passphrase. For Prism's own TLS set-ups outside PrismHTTP (PrismGraphQL's
    /// subscription socket); exposed to Prism's modules only (`@_spi(PrismInternals)`).
    @_spi(PrismInternals)
    public func withMaterial<T>(
        pem: (_ chain: [PrismCertificate], _ privateKeyPEM: String) throws -> T,
        pkcs12: (_ bundle: Data, _ passphrase: String) throws -> T
    ) rethrows -> T {
        switch material {
        case .pem(let chain, let key): try pem(chain, key)
        case .pkcs12(let bundle, let passphrase): try pkcs12(bundle, passphrase)
        }
    }

    /// An identity from PEM texts: the certificate (then any intermediates) and its private key
    /// (PKCS#8 `PRIVATE KEY`, or `EC PRIVATE KEY` / `RSA PRIVATE KEY`).
    ///
    /// - Throws: ``PrismHTTPError`` with code
    ///   ``PrismHTTPError/Code-swift.struct/invalidTLSConfiguration`` when the chain holds no
    ///   certificate or the key text holds no private key block.
    public init(certificateChainPEM: String, privateKeyPEM: String) throws {
        let chain = try PrismCertificate.all(pem: certificateChainPEM)
        guard !chain.isEmpty else {
            throw CertificatePinning.invalid("The client certificate chain holds no CERTIFICATE block.")
        }
        let hasKey = ["PRIVATE KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY"].contains { label in
            (try? CertificatePinning.pemBlocks(privateKeyPEM, label: label).isEmpty == false) ?? false
        }
        guard hasKey else {
            throw CertificatePinning.invalid("The client's private key text holds no PRIVATE KEY block.")
        }
        self.material = .pem(chain: chain, privateKeyPEM: privateKeyPEM)
    }

    /// An identity from a PKCS#12 bundle (`.p12`, `.pfx`) and its passphrase. The bundle is read
    /// when a transport is created; one that does not open fails every request with
    /// ``PrismHTTPError/Code-swift.struct/invalidTLSConfiguration``.
    public init(pkcs12: Data, passphrase: String) {
        self.material = .pkcs12(pkcs12, passphrase: passphrase)
    }
}

extension PrismClientIdentity: CustomStringConvertible, CustomDebugStringConvertible {
    /// What kind of identity it is, without the key or the passphrase.
    public var description: String {
        switch material {
        case .pem(let chain, _): "PrismClientIdentity(PEM, \(chain.count) certificate(s), private key redacted)"
        case .pkcs12(let bundle, _): "PrismClientIdentity(PKCS#12, \(bundle.count) bytes, passphrase redacted)"
        }
    }

    /// The same as ``description``: no key, no passphrase.
    public var debugDescription: String { description }
}
