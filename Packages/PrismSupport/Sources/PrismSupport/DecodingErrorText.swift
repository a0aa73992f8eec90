/// A decoding error as a sentence a person can act on: which key or value, at which path, what was
/// expected. Used wherever Prism reports that something did not decode (an HTTP response, GraphQL
/// data, a saved state).
public enum DecodingErrorText {
    /// `error` as a sentence ending with a period, naming the key path (`items.[3].title`) and
    /// the type; an error that is not a `DecodingError` as its own description.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty
                ? "the top level"
                : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = context.codingPath.isEmpty ? "" : " at \(path(context.codingPath))"
            return "no value for key \"\(key.stringValue)\"\(at)."
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context.codingPath)): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "expected \(type) at \(path(context.codingPath)) but found null."
        case .dataCorrupted(let context):
            return "the data is not valid at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
