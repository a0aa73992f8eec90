/// How much of an upload has been sent.
public struct PrismUploadProgress: Sendable, Hashable {
    /// The bytes sent so far.
    public let bytesUploaded: Int64
    /// The body's size in bytes.
    public let totalBytes: Int64

    /// Creates a progress value.
    public init(bytesUploaded: Int64, totalBytes: Int64) {
        self.bytesUploaded = bytesUploaded
        self.totalBytes = totalBytes
    }

    /// The fraction sent, from 0.0 to 1.0 (1.0 for an empty body).
    public var fractionCompleted: Double {
        totalBytes > 0 ? min(1, Double(bytesUploaded) / Double(totalBytes)) : 1
    }
}
