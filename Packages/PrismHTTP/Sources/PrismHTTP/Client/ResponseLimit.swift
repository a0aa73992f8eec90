import Foundation

/// The error of a response body past `maximumResponseBytes`, the same on every transport.
enum ResponseLimit {
    static func tooLarge(announced: Int?, limit: Int, url: URL, status: Int?) -> PrismHTTPError {
        PrismHTTPError(
            code: .responseTooLarge,
            message: "The response body "
                + (announced.map { "(\($0) bytes announced) " } ?? "")
                + "is larger than the transport accepts (\(limit) bytes).",
            url: url,
            statusCode: status
        )
    }
}
