import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Security)
import Security
#endif

/// ``PrismTLSConfiguration`` for URLSession.
///
/// On Apple platforms the task's authentication challenge applies it: the trust roots and pins
/// for `NSURLAuthenticationMethodServerTrust`, the PKCS#12 identity for
/// `NSURLAuthenticationMethodClientCertificate`; the minimum version is the session's. On Linux,
/// swift-corelibs-foundation offers neither challenge (libcurl decides trust alone), so a
/// transport with TLS settings refuses every request rather than send without them.
enum URLSessionTLS {
    /// Throws when `url` cannot be sent under `tls` on this platform: a pinned host over plain
    /// HTTP, or (on Linux) any setting at all.
    static func admit(_ url: URL, _ tls: PrismTLSConfiguration) throws(PrismHTTPError) {
        guard tls != .default else { return }
        #if canImport(FoundationNetworking)
        throw PrismHTTPError(
            code: .invalidTLSConfiguration,
            message: "PrismURLSessionTransport cannot apply TLS settings on Linux (swift-corelibs-foundation has no "
                + "server-trust or client-certificate challenge): use PrismAsyncHTTPClientTransport. Nothing was sent.",
            url: url)
        #else
        if let host = url.host, !tls.pins(for: host).isEmpty, url.scheme?.lowercased() != "https" {
            throw CertificatePinning.cleartext(host: host, url: url)
        }
        #endif
    }

    /// Sets the oldest TLS version the session speaks.
    static func apply(_ tls: PrismTLSConfiguration, to settings: URLSessionConfiguration) {
        #if !canImport(FoundationNetworking)
        settings.tlsMinimumSupportedProtocolVersion = tls.minimumVersion == .tls13 ? .TLSv13 : .TLSv12
        #endif
    }
}

#if !canImport(FoundationNetworking) && canImport(Security)
extension TaskDelegate {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let url = task.currentRequest?.url ?? task.originalRequest?.url
        switch URLSessionTLS.answer(challenge, tls: tls, url: url) {
        case .success(let answer):
            completionHandler(answer.0, answer.1)
        case .failure(let failure):
            trustFailure = failure
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }
}

extension SessionDelegateRouter {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let delegate = delegate(for: task) else { return completionHandler(.performDefaultHandling, nil) }
        delegate.urlSession(session, task: task, didReceive: challenge, completionHandler: completionHandler)
    }
}

extension URLSessionTLS {
    typealias Answer = (URLSession.AuthChallengeDisposition, URLCredential?)

    /// The answer to `challenge` under `tls`, or the error that refuses the server.
    static func answer(
        _ challenge: URLAuthenticationChallenge, tls: PrismTLSConfiguration, url: URL?
    ) -> Result<Answer, PrismHTTPError> {
        let space = challenge.protectionSpace
        switch space.authenticationMethod {
        case NSURLAuthenticationMethodServerTrust:
            guard tls != .default, let trust = space.serverTrust else {
                return .success((.performDefaultHandling, nil))
            }
            return evaluate(trust, host: space.host, tls: tls, url: url)
        case NSURLAuthenticationMethodClientCertificate:
            guard let identity = tls.clientIdentity else { return .success((.performDefaultHandling, nil)) }
            return credential(for: identity, url: url).map { credential -> Answer in (.useCredential, credential) }
        default:
            return .success((.performDefaultHandling, nil))
        }
    }

    /// The server's chain checked against the trust roots, then its key against the host's pins.
    private static func evaluate(
        _ trust: SecTrust, host: String, tls: PrismTLSConfiguration, url: URL?
    ) -> Result<Answer, PrismHTTPError> {
        switch tls.trustRoots {
        case .system:
            break
        case .systemAnd(let roots), .only(let roots):
            let anchors = roots.compactMap { SecCertificateCreateWithData(nil, $0.derBytes as CFData) }
            _ = SecTrustSetAnchorCertificates(trust, anchors as CFArray)
            if case .only = tls.trustRoots {
                _ = SecTrustSetAnchorCertificatesOnly(trust, true)
            } else {
                _ = SecTrustSetAnchorCertificatesOnly(trust, false)
            }
        }
        var error: CFError?
        guard SecTrustEvaluateWithError(trust, &error) else {
            return .failure(
                PrismHTTPError(
                    code: .connectionFailed,
                    message: "The connection failed: the certificate of \(host) is not trusted by the trust roots.",
                    url: url, underlying: error))
        }
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        let leaf = chain.first.map { SecCertificateCopyData($0) as Data }
        if let failure = CertificatePinning.check(host: host, leafDER: leaf, configuration: tls, url: url) {
            return .failure(failure)
        }
        return .success((.useCredential, URLCredential(trust: trust)))
    }

    /// The credential of a PKCS#12 identity (the Security framework imports no other kind).
    private static func credential(for identity: PrismClientIdentity, url: URL?) -> Result<
        URLCredential, PrismHTTPError
    > {
        guard case .pkcs12(let bundle, let passphrase) = identity.material else {
            return .failure(
                PrismHTTPError(
                    code: .invalidTLSConfiguration,
                    message: "PrismURLSessionTransport takes a client identity as PKCS#12 "
                        + "(PrismClientIdentity(pkcs12:passphrase:)) on Apple platforms. Nothing was sent.",
                    url: url))
        }
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: passphrase] as CFDictionary
        guard SecPKCS12Import(bundle as CFData, options, &items) == errSecSuccess,
            let first = (items as? [[String: Any]])?.first,
            let found = first[kSecImportItemIdentity as String],
            CFGetTypeID(found as CFTypeRef) == SecIdentityGetTypeID()
        else {
            return .failure(
                PrismHTTPError(
                    code: .invalidTLSConfiguration,
                    message: "The client identity's PKCS#12 bundle does not open with its passphrase.", url: url))
        }
        let secIdentity = unsafeBitCast(found as CFTypeRef, to: SecIdentity.self)
        let intermediates = ((first[kSecImportItemCertChain as String] as? [SecCertificate]) ?? []).dropFirst()
        return .success(URLCredential(identity: secIdentity, certificates: Array(intermediates), persistence: .none))
    }
}
#endif
