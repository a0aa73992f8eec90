#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import PrismSupport

/// ``PrismTLSConfiguration`` for AsyncHTTPClient: NIOSSL's client settings, and the check of a
/// host's pins on each new connection.
///
/// AsyncHTTPClient builds its TLS handler itself and takes no verification callback, so pins are
/// checked by the connection initializer it runs once a connection's handshake is done and
/// before the connection carries a request. The initializer sees the channel, not the host it was
/// opened for: a pinned host therefore gets an `HTTPClient` of its own (``PinnedClients``),
/// whose initializer knows the pins it enforces.
enum AsyncHTTPClientTLS {
    /// NIOSSL's client configuration for `tls`.
    ///
    /// - Throws: ``PrismHTTPError`` with code `invalidTLSConfiguration` when NIOSSL refuses a
    ///   certificate, the key, or the PKCS#12 bundle.
    static func configuration(_ tls: PrismTLSConfiguration) throws(PrismHTTPError) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = tls.minimumVersion == .tls13 ? .tlsv13 : .tlsv12
        do {
            switch tls.trustRoots {
            case .system:
                break
            case .systemAnd(let roots):
                configuration.additionalTrustRoots = [.certificates(try roots.map(certificate))]
            case .only(let roots):
                configuration.trustRoots = .certificates(try roots.map(certificate))
            }
        } catch {
            throw PrismHTTPError(
                code: .invalidTLSConfiguration, message: "A trust root is not a certificate NIOSSL can use.",
                underlying: error)
        }
        switch tls.clientIdentity?.material {
        case nil:
            break
        case .pem(let chain, let keyPEM):
            do {
                configuration.certificateChain = try chain.map { .certificate(try certificate($0)) }
                configuration.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem))
            } catch {
                throw PrismHTTPError(
                    code: .invalidTLSConfiguration,
                    message: "The client identity's certificate or private key cannot be read (an encrypted or "
                        + "unsupported key?).",
                    underlying: error)
            }
        case .pkcs12(let bundle, let passphrase):
            do {
                let opened = try NIOSSLPKCS12Bundle(buffer: Array(bundle), passphrase: Array(passphrase.utf8))
                configuration.certificateChain = opened.certificateChain.map { .certificate($0) }
                configuration.privateKey = .privateKey(opened.privateKey)
            } catch {
                throw PrismHTTPError(
                    code: .invalidTLSConfiguration,
                    message: "The client identity's PKCS#12 bundle does not open with its passphrase.",
                    underlying: error)
            }
        }
        return configuration
    }

    private static func certificate(_ certificate: PrismCertificate) throws -> NIOSSLCertificate {
        try NIOSSLCertificate(bytes: Array(certificate.derBytes), format: .der)
    }

    /// The connection initializer of `host`'s client: fails a connection whose server certificate
    /// matches none of the host's pins (and closes it), so that no request is written to it.
    static func pinCheck(host: String, tls: PrismTLSConfiguration) -> @Sendable (any Channel) -> EventLoopFuture<Void> {
        let expected = tls.pins(for: host)
        return { channel in
            channel.nioSSL_peerCertificate()
                .flatMapError { _ in channel.eventLoop.makeSucceededFuture(nil) }
                .flatMapThrowing { certificate in
                    let leaf = try certificate.map { Data(try $0.toDERBytes()) }
                    let failure: PrismHTTPError?
                    if certificate == nil && channel.isActive,
                        (try? channel.pipeline.syncOperations.handler(type: NIOSSLHandler.self)) == nil
                    {
                        failure = CertificatePinning.cleartext(host: host, url: nil)
                    } else {
                        failure = CertificatePinning.check(host: host, leafDER: leaf, expected: expected, url: nil)
                    }
                    guard let failure else { return }
                    // AsyncHTTPClient forgets a connection whose initializer failed without
                    // closing it; close it once the pool has heard of the failure.
                    channel.eventLoop.execute { channel.close(promise: nil) }
                    throw failure
                }
        }
    }
}

/// The clients of pinned hosts, one per host, made when the host is first asked for.
final class PinnedClients: Sendable {
    /// The clients made so far, by host.
    private let clients = PrismLocked<[String: HTTPClient]>([:])
    private let make: @Sendable (String) -> HTTPClient

    init(make: @escaping @Sendable (String) -> HTTPClient) {
        self.make = make
    }

    /// The client of `host` (normalized), made on first use.
    func client(for host: String) -> HTTPClient {
        clients.withLock { clients in
            if let client = clients[host] { return client }
            let client = make(host)
            clients[host] = client
            return client
        }
    }

    /// Every client made so far, forgotten here: the caller shuts them down.
    func takeAll() -> [HTTPClient] {
        clients.withLock { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
    }
}
#endif
