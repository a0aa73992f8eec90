extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = self.firstIndex(where: { !isWhitespace($0) }) else { return "" }
        let last = self.lastIndex(where: { !isWhitespace($0) })!
        return String(self[first...last])
    }
}

extension String {
    /// nil for the empty string.
    var nilIfEmpty: String? { self.isEmpty ? nil : self }
}

extension String {
    /// `bytes` as UTF-8 text, or nil when they are not valid UTF-8.
    ///
    /// The standard library's `String(validating:as:)` needs macOS 15; the package deploys to
    /// macOS 14. Decoding repairs an invalid sequence with U+FFFD, so the bytes were valid exactly
    /// when the decoded text encodes back to them.
    init?(validatingUTF8Bytes bytes: some Collection<UInt8>) {
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.utf8.elementsEqual(bytes) else { return nil }
        self = decoded
    }
}
