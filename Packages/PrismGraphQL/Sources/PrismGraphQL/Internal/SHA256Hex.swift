import Crypto
import Foundation

/// SHA-256 digests as lowercase hex (swift-crypto; CryptoKit underneath on Apple platforms).
enum SHA256Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The SHA-256 of `data`, as 64 lowercase hex digits.
    static func digest(of data: some DataProtocol) -> String {
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: data) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
