import Foundation
import PrismSupport

/// The few POSIX calls an atomic, durable file write needs, with `EINTR` retried.
enum SystemCalls {
    /// Writes all of `bytes` to `descriptor`, or returns the `errno` of the call that failed.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard var cursor = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, cursor, min(remaining, 1 << 30))
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            cursor += written
            remaining -= written
        }
        return nil
    }

    /// Reads `descriptor` to its end, or returns the `errno` of the call that failed.
    static func readAll(_ descriptor: Int32, sizeHint: Int) -> Result<Data, SystemError> {
        var data = Data(count: max(sizeHint, 0) + 1)
        var count = 0
        while true {
            if count == data.count { data.count += max(data.count, 4096) }
            let got = data.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                return .failure(SystemError(number: errno))
            }
            if got == 0 { break }
            count += got
        }
        data.count = count
        return .success(data)
    }

    /// Makes what was written to `descriptor` durable: `F_FULLFSYNC` on Apple platforms (where
    /// `fsync` leaves it in the drive's cache), `fsync` elsewhere.
    static func sync(_ descriptor: Int32) -> Int32? {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return nil }
        #endif
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            return errno
        }
        return nil
    }

    /// Makes the entries of the folder at `path` durable (a rename, a new or removed file).
    ///
    /// File systems that cannot sync a folder (`EINVAL`, `ENOTSUP`) are not an error.
    static func syncDirectory(_ path: String) -> Int32? {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        if let error = sync(descriptor), error != EINVAL, error != ENOTSUP, error != EOPNOTSUPP {
            return error
        }
        return nil
    }
}

/// An `errno` value, as an error.
struct SystemError: Error {
    var number: Int32
}
