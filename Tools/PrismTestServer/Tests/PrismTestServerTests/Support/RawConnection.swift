import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP connection to 127.0.0.1, for what an HTTP client hides: interim `100 Continue`
/// responses, or a connection closed without a single byte.
final class RawConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw TestFailure("socket() failed") }
        self.descriptor = descriptor
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw TestFailure("connect() failed")
        }
    }

    deinit {
        close(self.descriptor)
    }

    /// Whether a listening socket could be bound to 127.0.0.1:`port` now, i.e. nobody listens there.
    static func canBind(port: Int) -> Bool {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }

    /// Sends `text` (UTF-8).
    func send(_ text: String) throws {
        try self.send(bytes: Array(text.utf8))
    }

    /// Sends `bytes`, blocking while the kernel's send buffer is full.
    func send(bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(self.descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw TestFailure("write() failed") }
            sent += count
        }
    }

    /// Reads until `marker` has arrived (returns everything read), or until the peer closes.
    func read(until marker: String? = nil) throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { readSome(into: $0) }
            if count == 0 { break }  // closed by the peer
            guard count > 0 else {
                if errno == ECONNRESET { break }
                throw TestFailure("read() failed or timed out (errno \(errno))")
            }
            received += buffer[..<count]
            if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Reads a response head and then `bodyBytes` bytes of its body (or until the peer closes);
    /// returns the head.
    func readHead(thenBodyBytes bodyBytes: Int) throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        func headEnd() -> Int? {
            guard received.count >= separator.count else { return nil }
            for start in 0...(received.count - separator.count)
            where received[start..<start + separator.count].elementsEqual(separator) {
                return start + separator.count
            }
            return nil
        }
        while true {
            if let end = headEnd(), received.count - end >= bodyBytes {
                return String(decoding: received[..<end], as: UTF8.self)
            }
            let count = buffer.withUnsafeMutableBytes { readSome(into: $0) }
            guard count > 0 else {
                throw TestFailure("the peer closed or read() failed before the head and body arrived")
            }
            received += buffer[..<count]
        }
    }

    /// One `read(2)` into `buffer`: the byte count, 0 when the peer closed, -1 on an error.
    private func readSome(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        #else
        Darwin.read(descriptor, buffer.baseAddress, buffer.count)
        #endif
    }
}

/// Runs blocking socket code on a thread of its own, not on one of Swift concurrency's few threads
/// (which the server under test needs).
func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.start()
    }
}
