#if WebSocketSubscriptions && !os(watchOS)
import Foundation
import NIOCore
import NIOSSL
import NIOTLS
@_spi(PrismInternals) import PrismHTTP

/// The network client's `PrismTLSConfiguration` for a WebSocket: NIOSSL's client
/// settings (as the AsyncHTTPClient transport builds them), and the pin check that runs once the
/// handshake is done and before the upgrade request is written.
///
/// The mapping repeats the AsyncHTTPClient transport's (`AsyncHTTPClientTLS`): PrismHTTP links
/// SwiftNIO SSL only on Linux with its AsyncHTTPClient trait, while PrismWebSocket links it on every
/// platform, so neither can lend it to the other.
enum WebSocketTLS {
    /// NIOSSL's client configuration for `tls`.
    ///
    /// - Throws: `PrismHTTPError` with code `invalidTLSConfiguration` when NIOSSL refuses a
    ///   certificate, the key, or the PKCS#12 bundle.
    static func configuration(_ tls: PrismTLSConfiguration) throws(PrismHTTPError) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = tls.minimumVersion == .tls13 ? .tlsv13 : .tlsv12
        do {
            let roots: [NIOSSLCertificate]
            switch tls.trustRoots {
            case .system:
                roots = []
            case .systemAnd(let certificates), .only(let certificates):
                roots = try certificates.map { try NIOSSLCertificate(bytes: Array($0.derBytes), format: .der) }
            }
            if case .only = tls.trustRoots {
                configuration.trustRoots = .certificates(roots)
            } else if !roots.isEmpty {
                configuration.additionalTrustRoots = [.certificates(roots)]
            }
            if let identity = tls.clientIdentity {
                let (chain, key): ([NIOSSLCertificateSource], NIOSSLPrivateKeySource) = try identity.withMaterial(
                    pem: { chain, keyPEM in
                        (
                            try chain.map {
                                .certificate(try NIOSSLCertificate(bytes: Array($0.derBytes), format: .der))
                            },
                            .privateKey(try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem))
                        )
                    },
                    pkcs12: { bundle, passphrase in
                        let opened = try NIOSSLPKCS12Bundle(buffer: Array(bundle), passphrase: Array(passphrase.utf8))
                        return (opened.certificateChain.map { .certificate($0) }, .privateKey(opened.privateKey))
                    })
                configuration.certificateChain = chain
                configuration.privateKey = key
            }
        } catch {
            throw PrismHTTPError(
                code: .invalidTLSConfiguration,
                message: "A trust root, or the client identity's certificate, key or PKCS#12 bundle, cannot be used "
                    + "by NIOSSL.",
                underlying: error)
        }
        return configuration
    }
}

/// Holds the channel's outbound traffic back until the TLS handshake is done and the server's
/// certificate has passed the host's pins: then it completes `verified` (on failure it fails it
/// and closes the channel), and the caller adds the HTTP handlers that write the upgrade request.
final class HandshakeGate: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny

    private let host: String
    private let tls: PrismTLSConfiguration
    private let url: URL
    // Completed once, on the channel's event loop.
    private let verified: EventLoopPromise<Void>
    private var done = false

    init(host: String, tls: PrismTLSConfiguration, url: URL, verified: EventLoopPromise<Void>) {
        self.host = host
        self.tls = tls
        self.url = url
        self.verified = verified
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event, !done {
            done = true
            let certificate = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self)
                .peerCertificate
            let leaf = try? certificate.map { Data(try $0.toDERBytes()) }
            if let failure = CertificatePinning.check(
                host: host, leafDER: leaf ?? nil, configuration: tls, url: url)
            {
                verified.fail(failure)
                context.close(promise: nil)
                return
            }
            verified.succeed()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !done {
            done = true
            verified.fail(error)
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !done {
            done = true
            verified.fail(ChannelError.eof)
        }
        context.fireChannelInactive()
    }
}
#endif
