import NIOSSL

/// The self-signed certificate and key of every server started with `tls: true`.
///
/// A P-256 key and a certificate for `127.0.0.1` and `localhost`, valid from 2020 to 2120, that is
/// its own certificate authority. Test material only: the key is public, so trust this
/// certificate in a test's client (``PrismTestServer/certificatePEM``) and nowhere else.
enum TestCertificate {
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBlzCCAT6gAwIBAgIBATAKBggqhkjOPQQDAjAaMRgwFgYDVQQDDA9QcmlzbVRl
        c3RTZXJ2ZXIwIBcNMjAwMTAxMDAwMDAwWhgPMjEyMDAxMDEwMDAwMDBaMBoxGDAW
        BgNVBAMMD1ByaXNtVGVzdFNlcnZlcjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IA
        BJ/GCPFQefFVwJ1phR3DvkAn1Yn+H2ZJ+99f6y/CwTnNlZsFdCra3Y4J861RAoqJ
        0/zz/Z8pZ0M7miCMZs11DpmjczBxMBoGA1UdEQQTMBGHBH8AAAGCCWxvY2FsaG9z
        dDAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIChDATBgNVHSUEDDAKBggr
        BgEFBQcDATAdBgNVHQ4EFgQU2l+LRFa8uTZMP+gyl68PHw8IZq8wCgYIKoZIzj0E
        AwIDRwAwRAIgd4ghyuAQcvWHbSg+JbJ18Rs1lJwe9Pvr4WJpKG99Q3cCIDhKFpCT
        /MxQoGOzmn36Bj6cBPpcIvRlFzjiqi+Qvy2y
        -----END CERTIFICATE-----
        """

    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgcZtVnkoiqRCqx5d8
        Vud2LEF3BmiiPu2NyPLqRleLXx+hRANCAASfxgjxUHnxVcCdaYUdw75AJ9WJ/h9m
        SfvfX+svwsE5zZWbBXQq2t2OCfOtUQKKidP88/2fKWdDO5ogjGbNdQ6Z
        -----END PRIVATE KEY-----
        """

    /// The server side of TLS with this certificate and key.
    static func serverConfiguration() throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        return TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
    }
}
