import PrismSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How one entry of the disk tier is laid out in its file, and the only code that reads or
/// writes that layout. Every number is little-endian.
///
/// | bytes | what |
/// |---|---|
/// | 8 | `magic`: "PRISMRC" and the format version, 2 |
/// | 32 | HMAC-SHA256 of every byte after it, under the folder's secret (`DiskTier`) |
/// | 4 + n | the key: its length, then its UTF-8 (a URL with its query; a digest of the credentials, never them) |
/// | 8 | when the entry was stored, in nanoseconds since 1970 (on the cache's wall clock) |
/// | 8, 8, 8 | the status code, the time to live and the initial age in nanoseconds |
/// | 4 + ... | the field lines but `Set-Cookie` and `Set-Cookie2`: how many, then each name and value as length and UTF-8 |
/// | 4 + ... | the varying request headers: how many, then each name and value the same way (a secret header's value only as its SHA-256, as PrismHTTP stores it) |
/// | 8 + n | the body: its length, then its bytes; the file ends there |
///
/// A file is accepted only when the magic, the code, every length and the end agree: a file
/// cut short by a crash, changed on disk, written by something else (another version, another
/// program) or by anyone without the folder's secret decodes to nil, and the disk tier removes
/// it. A cookie a response sets is the user's session: it stays in memory, never on disk.
enum DiskEntryFormat {
    static let magic: [UInt8] = Array("PRISMRC".utf8) + [2]
    /// Where the key starts: after the magic and the code.
    static let headerSize = 8 + SHA256.byteCount
    /// The fields not written to disk (lowercase).
    static let unstoredFields: Set<String> = ["set-cookie", "set-cookie2"]
    /// The suffix of an entry's file name (after 32 hexadecimal digits of ``fileName(for:)``).
    static let suffix = ".prc"
    /// What a file being written carries until it is renamed into place.
    static let temporarySuffix = ".tmp"

    /// An entry as stored, with when it was stored.
    struct Decoded {
        var key: String
        var entry: PrismCacheEntry
        /// When it was stored, in nanoseconds since 1970.
        var storedAtWall: Int64
    }

    /// The file name of `key`'s entry: a 128-bit digest of the key as 32 hexadecimal digits
    /// and ``suffix``. The key itself (which may carry a digest of the request's credentials,
    /// never the credentials) is only inside the file.
    static func fileName(for key: String) -> String {
        // Two FNV-1a passes with different offsets, each finished by a MurmurHash3 mix: stable
        // from one process to the next (Swift's own hash is seeded per process).
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x6c62_272e_07bb_0142
        for byte in key.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = second &+ (second >> 29)
        }
        var text = ""
        text.reserveCapacity(36)
        for part in [mix(first), mix(second ^ UInt64(key.utf8.count))] {
            let hex = String(part, radix: 16)
            text += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return text + suffix
    }

    /// Whether `name` is an entry's file name, as ``fileName(for:)`` makes them.
    static func isEntryFileName(_ name: String) -> Bool {
        guard name.hasSuffix(suffix), name.utf8.count == 32 + suffix.utf8.count else { return false }
        return name.utf8.prefix(32).allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The file of `entry` for `key`, signed with `secret`.
    static func encode(_ entry: PrismCacheEntry, key: String, storedAtWall: Int64, secret: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entry.cost + key.utf8.count + 160)
        bytes += magic
        bytes += [UInt8](repeating: 0, count: SHA256.byteCount)
        appendText(key, to: &bytes)
        append(UInt64(bitPattern: storedAtWall), to: &bytes)
        append(UInt64(bitPattern: Int64(entry.statusCode)), to: &bytes)
        append(UInt64(bitPattern: DurationMath.nanoseconds(entry.ttl)), to: &bytes)
        append(UInt64(bitPattern: DurationMath.nanoseconds(entry.initialAge)), to: &bytes)
        let fields = entry.fields.filter { !unstoredFields.contains($0.name.lowercased()) }
        append(UInt32(fields.count), to: &bytes)
        for field in fields {
            appendText(field.name, to: &bytes)
            appendText(field.value, to: &bytes)
        }
        let varying = entry.varyingRequestHeaders.sorted { $0.key < $1.key }
        append(UInt32(varying.count), to: &bytes)
        for (name, value) in varying {
            appendText(name, to: &bytes)
            appendText(value, to: &bytes)
        }
        append(UInt64(entry.data.count), to: &bytes)
        bytes += entry.data
        let code = bytes.withUnsafeBytes {
            SHA256.authenticationCode(for: UnsafeRawBufferPointer(rebasing: $0[headerSize...]), key: secret)
        }
        bytes.replaceSubrange(8..<headerSize, with: code)
        return bytes
    }

    /// The entry in `bytes`, or nil when they are not a whole entry file signed with `secret`.
    static func decode(_ bytes: UnsafeRawBufferPointer, secret: [UInt8]) -> Decoded? {
        guard bytes.count >= headerSize, bytes.prefix(8).elementsEqual(magic) else { return nil }
        let code = SHA256.authenticationCode(for: UnsafeRawBufferPointer(rebasing: bytes[headerSize...]), key: secret)
        // Every byte compared, whatever the first difference: the time says nothing of the code.
        var difference: UInt8 = 0
        for (offset, byte) in code.enumerated() { difference |= byte ^ bytes[8 + offset] }
        guard difference == 0 else { return nil }
        var reader = Reader(bytes: bytes, offset: headerSize)
        guard let key = reader.text(),
            let storedAtWall = reader.uint64(),
            let status = reader.uint64(),
            let ttl = reader.uint64(),
            let initialAge = reader.uint64(),
            let fieldCount = reader.uint32()
        else { return nil }
        var fields: [PrismCacheEntry.Field] = []
        for _ in 0..<fieldCount {
            guard let name = reader.text(), let value = reader.text() else { return nil }
            fields.append(PrismCacheEntry.Field(name: name, value: value))
        }
        guard let varyingCount = reader.uint32() else { return nil }
        var varying: [String: String] = [:]
        for _ in 0..<varyingCount {
            guard let name = reader.text(), let value = reader.text() else { return nil }
            varying[name] = value
        }
        guard let dataCount = reader.uint64(), let data = reader.data(count: dataCount), reader.isAtEnd,
            let statusCode = Int(exactly: Int64(bitPattern: status)), (100...999).contains(statusCode)
        else { return nil }
        let entry = PrismCacheEntry(
            data: data, statusCode: statusCode, fields: fields, ttl: .nanoseconds(Int64(bitPattern: ttl)),
            initialAge: .nanoseconds(Int64(bitPattern: initialAge)), varyingRequestHeaders: varying)
        return Decoded(key: key, entry: entry, storedAtWall: Int64(bitPattern: storedAtWall))
    }

    /// The length of the key of an entry file from its first ``headerSize`` + 4 bytes (its magic
    /// checked, nothing else), or nil: what the disk tier reads first of each file when it lists
    /// its folder, before the key itself.
    static func keyLength(inPrefix bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= headerSize + 4, bytes.prefix(8).elementsEqual(magic) else { return nil }
        var reader = Reader(bytes: bytes, offset: headerSize)
        return reader.uint32().map(Int.init)
    }

    /// The 64-bit finalizer of MurmurHash3.
    private static func mix(_ value: UInt64) -> UInt64 {
        var mixed = value
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        mixed &*= 0xc4ce_b9fe_1a85_ec53
        mixed ^= mixed >> 33
        return mixed
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func appendText(_ text: String, to bytes: inout [UInt8]) {
        append(UInt32(text.utf8.count), to: &bytes)
        bytes += text.utf8
    }

    /// Reads numbers, text and bytes in order, each only if the bytes hold all of it.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset: Int

        var isAtEnd: Bool { offset == bytes.count }

        mutating func uint64() -> UInt64? {
            guard bytes.count - offset >= 8 else { return nil }
            defer { offset += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        mutating func uint32() -> UInt32? {
            guard bytes.count - offset >= 4 else { return nil }
            defer { offset += 4 }
            return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }

        mutating func text() -> String? {
            guard let count = uint32(), let range = take(UInt64(count)) else { return nil }
            // The code has vouched for the bytes (or, for a key read while listing the folder, nothing
            // has yet: the load checks it); invalid UTF-8 (never written) would be repaired.
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        mutating func data(count: UInt64) -> Data? {
            take(count).map { Data(UnsafeRawBufferPointer(rebasing: bytes[$0])) }
        }

        private mutating func take(_ count: UInt64) -> Range<Int>? {
            guard count <= UInt64(bytes.count - offset) else { return nil }
            let range = offset..<(offset + Int(count))
            offset = range.upperBound
            return range
        }
    }
}
