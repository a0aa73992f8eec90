import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import CPrismSHA256
#endif

/// SHA-256 (FIPS 180-4), the one digest Prism needs: cache keys over credentials and `Vary`
/// values, persisted-query hashes, download checksums, public-key pins and the code generator's
/// operation ids.
///
/// On Apple platforms it is CryptoKit's. Elsewhere the compression function is Prism's own, in C
/// (`CPrismSHA256`), rather than swift-crypto's, whose Linux build compiles a copy of BoringSSL
/// (about 75 s of every first build on two cores, for every app that uses PrismHTTP) for this
/// one function. Checked against FIPS 180-4's examples, NIST's vectors and the system's
/// `sha256sum` (`SHA256Tests`).
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(data: Data("ab".utf8))
/// hasher.update(data: Data("c".utf8))
/// Hexadecimal.lowercase(hasher.finalize())  // "ba7816bf..."
/// ```
public struct SHA256: Sendable {
    /// The digest's length in bytes.
    public static let byteCount = 32

    #if canImport(CryptoKit)
    private var hasher = CryptoKit.SHA256()
    #else
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// The bytes of a block not yet complete (fewer than 64).
    private var pending: [UInt8] = []
    /// How many bytes were hashed in all.
    private var length: UInt64 = 0
    #endif

    /// A hasher with nothing hashed yet.
    public init() {}

    /// The digest of `data`.
    public static func hash(data: some DataProtocol) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }

    /// The digest of `data` as 64 lowercase hexadecimal digits.
    public static func hex(of data: some DataProtocol) -> String {
        Hexadecimal.lowercase(hash(data: data))
    }

    /// The digest of the UTF-8 bytes of `text` as 64 lowercase hexadecimal digits.
    public static func hex(of text: String) -> String {
        hex(of: Data(text.utf8))
    }

    /// Hashes `data` after what was hashed before.
    public mutating func update(data: some DataProtocol) {
        for region in data.regions {
            region.withUnsafeBytes { update(bufferPointer: $0) }
        }
    }

    #if canImport(CryptoKit)
    /// Hashes `bytes` after what was hashed before.
    public mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    /// The digest of everything hashed so far: 32 bytes. The hasher is left as it was.
    public func finalize() -> [UInt8] {
        Array(hasher.finalize())
    }
    #else
    /// Hashes `bytes` after what was hashed before.
    public mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let taken = min(64 - pending.count, rest.count)
            pending.append(contentsOf: rest.prefix(taken))
            rest = rest.dropFirst(taken)
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress(blocks: $0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = rest.count - rest.count % 64
        if whole > 0 {
            compress(blocks: UnsafeRawBufferPointer(rebasing: rest.prefix(whole)))
        }
        pending.append(contentsOf: rest.dropFirst(whole))
    }

    /// The digest of everything hashed so far: 32 bytes. The hasher is left as it was.
    public func finalize() -> [UInt8] {
        // The padding (section 5.1.1): a one bit, zeros up to 56 bytes into a block, then the
        // message's length in bits as a big-endian 64-bit number.
        var copy = self
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = length &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        tail.withUnsafeBytes { copy.compress(blocks: $0) }
        return copy.state.flatMap { word in
            [24, 16, 8, 0].map { shift in UInt8(truncatingIfNeeded: word >> UInt32(shift)) }
        }
    }

    /// Runs the compression function over `blocks`, whose length is a multiple of 64.
    private mutating func compress(blocks: UnsafeRawBufferPointer) {
        guard let start = blocks.baseAddress else { return }
        state.withUnsafeMutableBufferPointer { words in
            prism_sha256_compress(words.baseAddress, start.assumingMemoryBound(to: UInt8.self), blocks.count / 64)
        }
    }
    #endif
}

extension SHA256 {
    /// HMAC-SHA256 (RFC 2104) of `message` under `key`: 32 bytes that only a holder of the key
    /// can compute. What the response cache's disk tier signs its entries with. Checked against
    /// RFC 4231's test cases (`SHA256Tests`).
    public static func authenticationCode(for message: UnsafeRawBufferPointer, key: [UInt8]) -> [UInt8] {
        // A key longer than a block is hashed first; a shorter one is padded with zeros.
        var block = key.count > 64 ? hash(data: key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(data: block.map { $0 ^ 0x36 })
        inner.update(bufferPointer: message)
        var outer = SHA256()
        outer.update(data: block.map { $0 ^ 0x5c })
        outer.update(data: inner.finalize())
        return outer.finalize()
    }
}
