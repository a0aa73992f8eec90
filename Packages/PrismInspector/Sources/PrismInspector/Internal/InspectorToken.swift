#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The secret in the inspector's URL.
enum InspectorToken {
    /// 32 random bytes from the system's secure generator, as 64 hexadecimal digits.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var token = ""
        for _ in 0..<32 {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            token += String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }
        return token
    }
}

/// Writes to the process's standard streams without Foundation's `FileHandle`.
enum FileHandleOutput {
    static func standardError(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(2, buffer.baseAddress! + offset, buffer.count - offset)
            }
            guard written > 0 else { return }
            offset += written
        }
    }
}
