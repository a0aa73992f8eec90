/// Bytes written as hexadecimal digits: digests (SHA-256 of a download, of a persisted query, of
/// the credentials a cache key covers) and identifiers.
public enum Hexadecimal {
    @usableFromInline
    static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hexadecimal, two digits per byte: `[0x0f, 0xa0]` is `"0fa0"`.
    @inlinable
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
