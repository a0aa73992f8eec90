import Foundation

/// The certificates and keys behind the test servers' HTTPS, for tests of a client's TLS
/// settings: trust roots, pinning and client certificates (mutual TLS).
///
/// Every server started with `tls: true` presents ``serverCertificatePEM`` (for `127.0.0.1` and
/// `localhost`), signed by ``authorityPEM``, and asks each client for a certificate without
/// requiring one: a presented certificate must chain to ``clientAuthorityPEM`` or the handshake
/// fails, and `GET /tls/client-certificate` answers 200 only on a connection that presented one.
///
/// ```swift
/// let tls = try PrismTLSConfiguration(
///     trustRoots: .only([PrismCertificate(pem: PrismTestCertificates.authorityPEM)]))
/// ```
///
/// Every key here is public: trust these certificates in tests and nowhere else.
public enum PrismTestCertificates {
    /// The certificate authority of the servers' certificate, as PEM: the root to trust.
    public static var authorityPEM: String { TestCertificate.authorityPEM }
    /// The certificate the servers present (`CN=127.0.0.1`), as PEM: pin its public key.
    public static var serverCertificatePEM: String { TestCertificate.serverCertificatePEM }
    /// The certificate authority of the client certificates the servers accept, as PEM.
    public static var clientAuthorityPEM: String { TestCertificate.clientAuthorityPEM }
    /// A client certificate the servers accept (`CN=prism-test-client`), as PEM.
    public static var clientCertificatePEM: String { TestCertificate.clientCertificatePEM }
    /// The private key of ``clientCertificatePEM``, as PKCS#8 PEM.
    public static var clientPrivateKeyPEM: String { TestCertificate.clientPrivateKeyPEM }
    /// ``clientCertificatePEM`` and its key as a PKCS#12 bundle, protected by
    /// ``clientPKCS12Passphrase``.
    public static var clientPKCS12: Data { Data(base64Encoded: TestCertificate.clientPKCS12Base64) ?? Data() }
    /// The passphrase of ``clientPKCS12``.
    public static let clientPKCS12Passphrase = "prism"
    /// A self-signed client certificate the servers refuse (`CN=prism-test-stranger`), as PEM.
    public static var strangerCertificatePEM: String { TestCertificate.strangerCertificatePEM }
    /// The private key of ``strangerCertificatePEM``, as PKCS#8 PEM.
    public static var strangerPrivateKeyPEM: String { TestCertificate.strangerPrivateKeyPEM }
}
