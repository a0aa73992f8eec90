import Foundation
import PrismSupport

/// SHA-256 digests as lowercase hex (swift-crypto; CryptoKit underneath on Apple platforms).
enum SHA256Hex {
    /// The SHA-256 of `data`, as 64 lowercase hex digits.
    static func digest(of data: some DataProtocol) -> String {
        Hexadecimal.lowercase(SHA256.hash(data: data))
    }
}
