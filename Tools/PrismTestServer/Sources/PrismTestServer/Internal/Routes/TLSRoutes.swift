import HTTPTypes
import Hummingbird
import NIOCore
import NIOSSL

/// `GET /tls/client-certificate`: the route that requires a client certificate.
///
/// The server asks every TLS client for a certificate and refuses, at the handshake, one that does
/// not chain to the test client authority; this route answers 200
/// `{"subject": "<common name>"}` only on a connection that presented one, and 403 otherwise
/// (no certificate, or plain HTTP).
struct TLSRoutes: RouteGroup {
    func register(on router: Router<TestServerRequestContext>) {
        router.get("/tls/client-certificate") { _, context -> Response in
            let certificate = try? await context.channel.nioSSL_peerCertificate().get()
            guard let certificate else {
                return .jsonMessage("a client certificate is required", status: .forbidden)
            }
            return .json(["subject": .string(Self.commonName(of: certificate))])
        }
    }

    /// The subject's common name, read from the certificate's description
    /// (`<NIOSSLCertificate;serial_number=...;common_name=...>`).
    private static func commonName(of certificate: NIOSSLCertificate) -> String {
        let description = String(describing: certificate)
        guard let range = description.range(of: "common_name=") else { return "" }
        return String(description[range.upperBound...].prefix { $0 != ";" && $0 != ">" })
    }
}
