import Foundation
import PrismSupport

/// A port on 127.0.0.1 that refuses every connection, and that no other server can take while
/// this value holds it.
///
/// The socket is bound and never listens, so a connection to it is reset at once
/// (`ECONNREFUSED`). A port freed by stopping a server is not the same: tests that run side by
/// side start servers of their own, and one of them can be given the freed port.
///
/// ```swift
/// let refused = try PrismRefusedPort()
/// defer { refused.close() }
/// let url = URL(string: "http://127.0.0.1:\(refused.port)/users/octocat")!
/// ```
public final class PrismRefusedPort: @unchecked Sendable {
    /// The port, held until ``close()``.
    public let port: Int
    private let descriptor: Int32
    /// Whether ``close()`` ran: a second call must not close a descriptor number the process has
    /// since given to another socket (SwiftNIO's, say).
    private var isClosed = false  // guarded by lock
    private let lock = PrismLocked<Void>()

    /// Binds a TCP socket to 127.0.0.1 and an ephemeral port, without listening.
    public init() throws {
        #if canImport(Darwin)
        let kind = SOCK_STREAM
        #else
        let kind = Int32(SOCK_STREAM.rawValue)
        #endif
        let descriptor = socket(AF_INET, kind, 0)
        guard descriptor >= 0 else { throw Self.unavailable(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            _ = closeSocket(descriptor)
            throw Self.unavailable(code)
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    private static func unavailable(_ code: Int32) -> PrismTestServerError {
        PrismTestServerError(
            code: .portUnavailable, message: "No port on 127.0.0.1 could be reserved (errno \(code)).")
    }

    /// Gives the port back; the second call does nothing.
    public func close() {
        let first = lock.withLock {
            defer { isClosed = true }
            return !isClosed
        }
        if first { _ = closeSocket(descriptor) }
    }
}

private func closeSocket(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(descriptor)
    #elseif canImport(Musl)
    Musl.close(descriptor)
    #else
    Darwin.close(descriptor)
    #endif
}
