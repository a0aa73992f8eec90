import Foundation
import NIOSSL

/// The certificates and keys of the test servers' TLS, and of the clients that test mutual TLS.
///
/// P-256 keys, valid for a hundred years from 2026. Test material only: every key here is
/// public. Generated once with OpenSSL (`req -x509`, `x509 -req`, `pkcs12 -export`).
enum TestCertificate {
    /// The certificate authority that signed ``serverCertificatePEM``: the root a client trusts.
    static let authorityPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBlzCCAT2gAwIBAgIUSQDRzRmOPxIKKVf/M31jKoKElIQwCgYIKoZIzj0EAwIw
        GDEWMBQGA1UEAwwNUHJpc20gVGVzdCBDQTAgFw0yNjExMjYxNjMzNTFaGA8yMTI2
        MTEwMjE2MzM1MVowGDEWMBQGA1UEAwwNUHJpc20gVGVzdCBDQTBZMBMGByqGSM49
        AgEGCCqGSM49AwEHA0IABG0Xqkiq667R4I/2LxWS9gZ17wubSi/d7FcWNCzKy/B5
        sL+lvW+TvtoZxIPyNyOfaquruHNVV79F1s3CtOdQO0ejYzBhMB0GA1UdDgQWBBQ+
        2Mnb+Y5vEVo4QETS6lRrKA46CTAfBgNVHSMEGDAWgBQ+2Mnb+Y5vEVo4QETS6lRr
        KA46CTAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIBBjAKBggqhkjOPQQD
        AgNIADBFAiB2zCFvNb+LeXFYMlRXzDC/vjFiAaMFODtz7F63hirXgQIhAOrTEwyl
        fcU2KY8s80NFRGzuqpQWwAHIk2J/fD3ey8N/
        -----END CERTIFICATE-----
        """

    /// The certificate every server started with `tls: true` presents: `CN=127.0.0.1`, for
    /// `127.0.0.1` and `localhost`, signed by ``authorityPEM``.
    static let serverCertificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBsDCCAVagAwIBAgIBAjAKBggqhkjOPQQDAjAYMRYwFAYDVQQDDA1QcmlzbSBU
        ZXN0IENBMCAXDTI2MTEyNjE2MzM1MVoYDzIxMjYxMTAyMTYzMzUxWjAUMRIwEAYD
        VQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATn/OcnuUGt
        Dhb7Mqjtq6HZ48zUYj4/VWOJJVMj+KTf8mMpN6l4iEhvOubkjDDd3nvLl0icK4dk
        duj3x0xBe6Lko4GSMIGPMAwGA1UdEwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMBMG
        A1UdJQQMMAoGCCsGAQUFBwMBMBoGA1UdEQQTMBGHBH8AAAGCCWxvY2FsaG9zdDAd
        BgNVHQ4EFgQUYltheFNrV1iRGgDwqL8fZl9tUEcwHwYDVR0jBBgwFoAUPtjJ2/mO
        bxFaOEBE0upUaygOOgkwCgYIKoZIzj0EAwIDSAAwRQIgR34oEzqL7rkA6fHCuNAR
        IOzwcuk/CXO9vJDZ9MDpEDACIQDgTioBXrjmQ/UvRFOBAoA49/oc38B2AZlQXVff
        TMnUhg==
        -----END CERTIFICATE-----
        """

    static let serverPrivateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgeQs3CxwsQHVNiI2P
        nzZbP+YwdBYFc/xeXh1UCkRsZlGhRANCAATn/OcnuUGtDhb7Mqjtq6HZ48zUYj4/
        VWOJJVMj+KTf8mMpN6l4iEhvOubkjDDd3nvLl0icK4dkduj3x0xBe6Lk
        -----END PRIVATE KEY-----
        """

    /// The certificate authority whose client certificates the servers accept.
    static let clientAuthorityPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBpjCCAUugAwIBAgIUNL7IU6QvLI8/HvsMJYNXJi6vh+cwCgYIKoZIzj0EAwIw
        HzEdMBsGA1UEAwwUUHJpc20gVGVzdCBDbGllbnQgQ0EwIBcNMjYxMTI2MTYzMzUx
        WhgPMjEyNjExMDIxNjMzNTFaMB8xHTAbBgNVBAMMFFByaXNtIFRlc3QgQ2xpZW50
        IENBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAExZI4CvkaEOzvnqBftD7xltUB
        mDKjjBRqGnep9mlp+aGPbkJ4K2PrSD05OTk1J8xgQvyqFpimblbh7ExjYv5sIqNj
        MGEwHQYDVR0OBBYEFOXDkstJUe+0Z22/hjGPPxss0xS5MB8GA1UdIwQYMBaAFOXD
        kstJUe+0Z22/hjGPPxss0xS5MA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQD
        AgEGMAoGCCqGSM49BAMCA0kAMEYCIQCnosQ9oRcGNm2nU8XlDM7MNEdDkcinCxJ5
        ozb8j2XrjwIhANkhaQ/470ijKdfNoJ/WUUKok7IDILO+VE7l/IeqyPww
        -----END CERTIFICATE-----
        """

    /// A client certificate signed by ``clientAuthorityPEM``: `CN=prism-test-client`.
    static let clientCertificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBoTCCAUegAwIBAgIBAzAKBggqhkjOPQQDAjAfMR0wGwYDVQQDDBRQcmlzbSBU
        ZXN0IENsaWVudCBDQTAgFw0yNjExMjYxNjMzNTFaGA8yMTI2MTEwMjE2MzM1MVow
        HDEaMBgGA1UEAwwRcHJpc20tdGVzdC1jbGllbnQwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAAR/IZUqE4kXg9MPvvDyJOFZ0tBR1VP5uF6zXAgJFRg+EMazlZ6GIi2N
        QjFdI9GnGcDliMA5ijI/geo6kDHx1ZaIo3UwczAMBgNVHRMBAf8EAjAAMA4GA1Ud
        DwEB/wQEAwIHgDATBgNVHSUEDDAKBggrBgEFBQcDAjAdBgNVHQ4EFgQUdCP6osDG
        JHxVZrfnRUXm8h6bFSYwHwYDVR0jBBgwFoAU5cOSy0lR77Rnbb+GMY8/GyzTFLkw
        CgYIKoZIzj0EAwIDSAAwRQIgd1/hAHFnxohx5XmWJ98OWrTiRDIQm37077nNQ5Ks
        vH8CIQDl/6md+beiMF5m4bn69KEYC6vv+3vkYEugK7N0BsebtA==
        -----END CERTIFICATE-----
        """

    static let clientPrivateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgCI+JK7hUxZXzNprJ
        cv4+cphsELUZKgqFC9GGPvz7/pOhRANCAAR/IZUqE4kXg9MPvvDyJOFZ0tBR1VP5
        uF6zXAgJFRg+EMazlZ6GIi2NQjFdI9GnGcDliMA5ijI/geo6kDHx1ZaI
        -----END PRIVATE KEY-----
        """

    /// ``clientCertificatePEM`` and its key as PKCS#12 (AES-256-CBC, passphrase `prism`).
    static let clientPKCS12Base64 =
        "MIIELAIBAzCCA+IGCSqGSIb3DQEHAaCCA9MEggPPMIIDyzCCAoIGCSqGSIb3DQEHBqCCAnMwggJvAgEAMIICaAYJKoZIhvcNAQcBMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAgDDAsnXm5i5QICCAAwDAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEECsAv5m7w0p9d9wjlOdu54eAggIACEDaNyNvWmh+6WrYM0/gn/bd2jCisaGdaycylQ2prMIQZsq6SMSzzGnJSaYv9Fg0DT8LKCW5Hdw4KJoYEWTOUWWAJQlbrBSpjgmxnw3Yi8uU54oiJvi2fwZt20yHlpbuHG/3aBfAoIw3Ytr3TmybKta86EoEb7eAMKhVcw5lMWU1X/EWedC/axbee6B/GEAY0AMTfNB2MCD73onZ/qs7maXrzSBOT+nks0QEKDGYK8WVwnJRiQ9n0vqlyluZkfEthZ8QxtVc7uRwgu/qDM7o7SCLQOJYxLq0r29wLEwPBzHoK6NCMjWImC8i6KgryvOLWYB7pxYHzxLHFZB7ndDoJ8k197N1/QKe5MX5U8VgUWVSw/VvrNMKDN4ledVqEQ5zsjCKQgkNkhu3ZYXYvaVVpQ4TRABz0pJ2+VtyoogQLlVaawQw/4OsaAwVY0nqNNOAPB7cLZWF4WO/zFUOCRaIlizWm6PCthNmleeeASWo37JJ/0+x9zkpxKODBOFKb1o4XPHkWvqdekRlaJvpn3JdvmWmMsc0wL88LV8PWjHRqt+wBxQY1fwvUoJn1W1BlD4UnrLB9zeEZ43J7TdF8rhVAI1p8hDitTO3oSM70fTiLnAiI5K8xEkctCmpUI9xXA7dFcRVMm8g6sTTMvdSTtMNW53bERnD32cAY3PIWpI97qIwggFBBgkqhkiG9w0BBwGgggEyBIIBLjCCASowggEmBgsqhkiG9w0BDAoBAqCB7zCB7DBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQItWqyUjgI2eACAggAMAwGCCqGSIb3DQIJBQAwHQYJYIZIAWUDBAEqBBBMXRv1mQNbmyj0sZI6/fLWBIGQYIDGHhokD1pnPRCAMTmrZtgncu1DcUUWGrwFvjLVrK3R18DgGJDpRDgH7HAAVPlhT5A7iuMveUIN5EJQoZwAMYbzyUYRB7ampPQAw5pG46tZmXkgcsZ+R/5p33ZJdtuxuPCFABEDNgr9cfUToas80xAtXDovg12zGKa7eLIrWqUxc59vcp3Pbl7uWrSYJFlhMSUwIwYJKoZIhvcNAQkVMRYEFM3kEUR2SMdsunlMstaBEiwcjpJvMEEwMTANBglghkgBZQMEAgEFAAQgfDREa89vs3G8qrSXhkZDuG+2kpKcwfqIa0qk1Tbz5NkECLasuJ7UKehwAgIIAA=="

    /// A self-signed client certificate no server trusts: `CN=prism-test-stranger`.
    static let strangerCertificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBqTCCAU6gAwIBAgIUaCa4HHzVskqLAlB8QmW+I+FWQNgwCgYIKoZIzj0EAwIw
        HjEcMBoGA1UEAwwTcHJpc20tdGVzdC1zdHJhbmdlcjAgFw0yNjExMjYxNjMzNTFa
        GA8yMTI2MTEwMjE2MzM1MVowHjEcMBoGA1UEAwwTcHJpc20tdGVzdC1zdHJhbmdl
        cjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKZm0WTiP4W2dMN1bcBLRXtKiVrQ
        zTeUhqYbRIJIQWi7HfO9ZM2r4KDTj59+XH3XNBoOnW75CqOpXdzRT0m3d5CjaDBm
        MB0GA1UdDgQWBBTDhVILnBfnA7sdmf387EabFl7mxjAfBgNVHSMEGDAWgBTDhVIL
        nBfnA7sdmf387EabFl7mxjAPBgNVHRMBAf8EBTADAQH/MBMGA1UdJQQMMAoGCCsG
        AQUFBwMCMAoGCCqGSM49BAMCA0kAMEYCIQC2oqPhDdiZ2FaZwtwzMlL+UDOwmJPM
        PfUje39HpLrCTwIhALqjRz0Z8Rd0OeHs6onM+l8ajWze+pdaC7zvtQoVWkH5
        -----END CERTIFICATE-----
        """

    static let strangerPrivateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgJjRFeovg9+76f0Kj
        GfWXyu1mkzxmI4OoXu2pxNMlZZihRANCAASmZtFk4j+FtnTDdW3AS0V7Sola0M03
        lIamG0SCSEFoux3zvWTNq+Cg04+fflx91zQaDp1u+QqjqV3c0U9Jt3eQ
        -----END PRIVATE KEY-----
        """

    /// The server side of TLS: ``serverCertificatePEM`` and its key, TLS 1.2 up to
    /// `highestVersion`, and a client certificate asked for but not required (a route decides,
    /// `/tls/client-certificate`); one that is presented must chain to ``clientAuthorityPEM``.
    static func serverConfiguration(highestVersion: TLSVersion = .tlsv13) throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(bytes: Array(serverCertificatePEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(serverPrivateKeyPEM.utf8), format: .pem)
        let clientAuthority = try NIOSSLCertificate(bytes: Array(clientAuthorityPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.maximumTLSVersion = highestVersion
        configuration.certificateVerification = .optionalVerification
        configuration.trustRoots = .certificates([clientAuthority])
        return configuration
    }
}
