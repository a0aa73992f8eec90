#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// AsyncHTTPClient's and SwiftNIO's errors as ``PrismHTTPError``s, classified by their type and
/// value, never by searching their description text. Messages name the kind of failure only:
/// no URL, header value or other text that could carry a secret.
enum AsyncHTTPClientErrors {
    static func translate(_ error: any Error, url: URL, limit: Int) -> any Error {
        if error is CancellationError { return error }
        if var error = error as? PrismHTTPError {
            if error.url == nil { error.url = url }
            return error
        }
        switch error {
        case let error as HTTPClientError:
            return translate(error, url: url)
        case let error as NIOTooManyBytesError:
            return PrismHTTPError(
                code: .responseTooLarge,
                message: "The response body is larger than the transport accepts (\(limit) bytes).",
                url: url,
                underlying: error
            )
        case let error as NIOHTTPDecompression.DecompressionError:
            if error == .limit {
                return PrismHTTPError(
                    code: .responseTooLarge,
                    message: "The response body, decoded, is larger than the transport accepts (\(limit) bytes).",
                    url: url,
                    underlying: error
                )
            }
            return undecodable("its compressed data is corrupt", url: url, error: error)
        case let error as NIOHTTPDecompression.ExtraDecompressionError:
            return undecodable(
                error == .truncatedData
                    ? "it ended before its compressed data did" : "bytes follow its compressed data",
                url: url, error: error)
        case let error as NIOConnectionError:
            return connectionFailed("the connection could not be established", url: url, error: error)
        case let error as ChannelError:
            return connectionFailed("the channel failed (\(error))", url: url, error: error)
        case let error as IOError:
            return connectionFailed("a socket operation failed (errno \(error.errnoCode))", url: url, error: error)
        case let error as NIOSSLError:
            return connectionFailed("the TLS handshake or session failed", url: url, error: error)
        case let error as BoringSSLError:
            return connectionFailed("the TLS handshake or session failed", url: url, error: error)
        case let error as HTTPParserError where error == .invalidEOFState:
            // The connection closed in the middle of a response (a body cut short): lost, as
            // URLSession reports it, not malformed.
            return connectionFailed("the connection closed before the whole response arrived", url: url, error: error)
        case let error as HTTPParserError:
            return PrismHTTPError(
                code: .transportFailed,
                message: "The server's response is not valid HTTP/1.1 (\(error)).",
                url: url,
                underlying: error
            )
        default:
            return PrismHTTPError(
                code: .transportFailed,
                message: "The request failed (\(type(of: error))).",
                url: url,
                underlying: error
            )
        }
    }

    /// The error of a body whose `Content-Encoding` (gzip or deflate) does not decode.
    private static func undecodable(_ why: String, url: URL, error: any Error) -> PrismHTTPError {
        PrismHTTPError(
            code: .transportFailed,
            message: "The response body does not decode as its Content-Encoding says: \(why).",
            url: url,
            underlying: error
        )
    }

    /// Whether `error`, thrown before any of a response arrived, is a connection closed under
    /// the request: what a kept-alive connection gives when the server closes it (its idle
    /// timeout) just as the client sends on it. The request may not have reached the server's
    /// application, or may have; only an idempotent one is sent again.
    static func isClosedUnderRequest(_ error: any Error) -> Bool {
        switch error {
        case let error as HTTPClientError: error == .remoteConnectionClosed
        case let error as ChannelError: error == .ioOnClosedChannel || error == .eof || error == .outputClosed
        case let error as IOError: error.errnoCode == ECONNRESET || error.errnoCode == EPIPE
        default: false
        }
    }

    private static func translate(_ error: HTTPClientError, url: URL) -> any Error {
        switch error {
        case .cancelled, .requestStreamCancelled:
            return CancellationError()
        case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .tlsHandshakeTimeout,
            .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            return PrismHTTPError(code: .timedOut, message: "No response arrived in time.", url: url, underlying: error)
        case .alreadyShutdown:
            return connectionFailed(
                "the transport's HTTPClient was shut down (shutdown() or the end of withTransport); send with a new transport",
                url: url, error: error)
        case .remoteConnectionClosed, .uncleanShutdown, .bodyLengthMismatch:
            return connectionFailed("the connection closed before a complete response arrived", url: url, error: error)
        case .invalidURL, .emptyHost, .emptyScheme:
            return PrismHTTPError(code: .invalidURL, message: "The URL cannot be sent.", url: url, underlying: error)
        default:
            return PrismHTTPError(
                code: .transportFailed,
                message: "AsyncHTTPClient refused or failed the request.",
                url: url,
                underlying: error
            )
        }
    }

    private static func connectionFailed(_ what: String, url: URL, error: any Error) -> PrismHTTPError {
        PrismHTTPError(code: .connectionFailed, message: "The connection failed: \(what).", url: url, underlying: error)
    }
}
#endif
