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
