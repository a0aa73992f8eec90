import Foundation
import PrismSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of one URLSession task: it refuses every redirect (Prism follows them itself),
/// collects the body up to the limit and cancels the task past it, reports upload progress, and
/// resumes the caller once, when the task completes.
class TaskDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Why the task was cut off for its size.
    struct TooLarge {
        var announced: Int?
        var status: Int?
    }

    private let lock = PrismLocked<Void>()
    private let limit: Int
    private let progress: (@Sendable (Int64) -> Void)?
    private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
    private var data = Data()
    private var response: URLResponse?
    private var oversize: TooLarge?
    private var refusedTrust: PrismHTTPError?
    /// The TLS settings the authentication challenge applies (on Apple platforms).
    let tls: PrismTLSConfiguration

    init(limit: Int, progress: (@Sendable (Int64) -> Void)?, tls: PrismTLSConfiguration = .default) {
        self.limit = limit
        self.progress = progress
        self.tls = tls
    }

    /// Set when the body passed the limit (the task was then cancelled).
    var tooLarge: TooLarge? { lock.withLock { oversize } }

    /// Set when the TLS challenge refused the server (a pin mismatch, say): the task was then
    /// cancelled, and this is the error to report.
    var trustFailure: PrismHTTPError? {
        get { lock.withLock { refusedTrust } }
        set { lock.withLock { refusedTrust = newValue } }
    }

    func start(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
        lock.withLock { self.continuation = continuation }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        progress?(totalBytesSent)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode
        let announced = response.expectedContentLength
        if announced > Int64(limit) {
            lock.withLock { oversize = TooLarge(announced: Int(clamping: announced), status: status) }
            completionHandler(.cancel)
            cutOff(dataTask)
            return
        }
        lock.withLock { self.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // What the task has received so far, which may run far ahead of the callbacks waiting on
        // the delegate queue (libcurl does not wait for them): cut off as soon as either passes.
        let received = dataTask.countOfBytesReceived
        let cut = lock.withLock { () -> Bool in
            guard oversize == nil else { return false }
            if self.data.count + data.count > limit || received > Int64(limit) {
                oversize = TooLarge(status: (self.response as? HTTPURLResponse)?.statusCode)
                self.data = Data()
                return true
            }
            self.data.append(data)
            return false
        }
        if cut { cutOff(dataTask) }
    }

    /// Answers the caller at once, and cancels the task.
    ///
    /// swift-corelibs-foundation does not stop a transfer whose data keeps arriving (libcurl
    /// reads on, ignoring both the cancellation and the `.cancel` disposition, until the server
    /// stops): the caller is not kept waiting for that, and the data is dropped as it comes.
    private func cutOff(_ task: URLSessionTask) {
        let continuation = lock.withLock {
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(throwing: URLError(.dataLengthExceedsMaximum))
        task.cancel()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, data, response, oversize) = lock.withLock {
            () -> (CheckedContinuation<(Data, URLResponse), any Error>?, Data, URLResponse?, TooLarge?) in
            defer { self.continuation = nil }
            return (self.continuation, self.data, self.response ?? task.response, self.oversize)
        }
        if oversize != nil {
            continuation?.resume(throwing: URLError(.dataLengthExceedsMaximum))
        } else if let error {
            continuation?.resume(throwing: error)
        } else if let response {
            continuation?.resume(returning: (data, response))
        } else {
            continuation?.resume(throwing: URLError(.badServerResponse))
        }
    }
}

/// URLSession's errors as ``PrismHTTPError``s, by their code; messages carry no URL.
enum URLSessionErrors {
    static func translate(_ error: any Error, url: URL) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        if let error = error as? PrismHTTPError { return error }
        guard let error = error as? URLError else {
            return PrismHTTPError(
                code: .transportFailed, message: "The request failed (\(type(of: error))).", url: url, underlying: error
            )
        }
        switch error.code {
        case .cancelled:
            return CancellationError()
        case .timedOut:
            return PrismHTTPError(code: .timedOut, message: "No response arrived in time.", url: url, underlying: error)
        case .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet,
            .badServerResponse, .dnsLookupFailed, .secureConnectionFailed, .zeroByteResource,
            .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .clientCertificateRejected, .cannotLoadFromNetwork:
            return PrismHTTPError(
                code: .connectionFailed,
                message: "The connection failed or closed before a complete response arrived "
                    + "(URLError \(error.code.rawValue)).",
                url: url,
                underlying: error
            )
        case .badURL, .unsupportedURL:
            return PrismHTTPError(
                code: .invalidURL, message: "The URL cannot be sent (URLError \(error.code.rawValue)).", url: url,
                underlying: error)
        default:
            return PrismHTTPError(
                code: .transportFailed,
                message: "The request failed (URLError \(error.code.rawValue)).",
                url: url,
                underlying: error
            )
        }
    }
}

/// The delegate of a session the transport made: it hands each task's events to that task's
/// ``TaskDelegate``. (swift-corelibs-foundation ignores a task's own `delegate` when its session
/// has none, so a session-wide delegate is the way that works everywhere.)
final class SessionDelegateRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = PrismLocked<Void>()
    private var delegates: [Int: TaskDelegate] = [:]

    /// Sends `task`'s events to `delegate` until it completes.
    func register(_ delegate: TaskDelegate, for task: URLSessionTask) {
        lock.withLock { delegates[task.taskIdentifier] = delegate }
    }

    func delegate(for task: URLSessionTask) -> TaskDelegate? {
        lock.withLock { delegates[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Never followed here: Prism follows redirects itself.
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        delegate(for: task)?.urlSession(
            session, task: task, didSendBodyData: bytesSent, totalBytesSent: totalBytesSent,
            totalBytesExpectedToSend: totalBytesExpectedToSend)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let delegate = delegate(for: dataTask) else { return completionHandler(.cancel) }
        delegate.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        delegate(for: dataTask)?.urlSession(session, dataTask: dataTask, didReceive: data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let delegate = lock.withLock { delegates.removeValue(forKey: task.taskIdentifier) }
        delegate?.urlSession(session, task: task, didCompleteWithError: error)
    }
}
