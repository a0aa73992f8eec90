import Foundation
import PrismSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of one URLSession task: it refuses every redirect (Prism follows them itself),
/// collects the body up to the limit and cancels the task past it, reports upload progress, and
/// resumes the caller once, when the task completes.
///
/// `@unchecked` only because ``StreamTaskDelegate`` subclasses it (a checked `Sendable` class
/// must be final): its stored properties are `let`s of `Sendable` types.
class TaskDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Why the task was cut off for its size.
    struct TooLarge {
        var announced: Int?
        var status: Int?
    }

    /// What the task has delivered so far, and the caller waiting for its end, behind the
    /// delegate's lock.
    private struct State {
        var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
        var data = Data()
        var response: URLResponse?
        var oversize: TooLarge?
        var refusedTrust: PrismHTTPError?
    }

    private let state = PrismLocked(State())
    private let limit: Int
    private let progress: (@Sendable (Int64) -> Void)?
    /// The TLS settings the authentication challenge applies (on Apple platforms).
    let tls: PrismTLSConfiguration

    init(limit: Int, progress: (@Sendable (Int64) -> Void)?, tls: PrismTLSConfiguration = .default) {
        self.limit = limit
        self.progress = progress
        self.tls = tls
    }

    /// Set when the body passed the limit (the task was then cancelled).
    var tooLarge: TooLarge? { state.withLock { $0.oversize } }

    /// Set when the TLS challenge refused the server (a pin mismatch, say): the task was then
    /// cancelled, and this is the error to report.
    var trustFailure: PrismHTTPError? {
        get { state.withLock { $0.refusedTrust } }
        set { state.withLock { $0.refusedTrust = newValue } }
    }

    func start(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
        state.withLock { $0.continuation = continuation }
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
        // A HEAD's, a 204's or a 304's Content-Length announces no body to come.
        let hasBody = ResponseLimit.hasBody(method: dataTask.originalRequest?.httpMethod, status: status ?? 200)
        let announced = hasBody ? response.expectedContentLength : -1
        if announced > Int64(limit) {
            state.withLock { $0.oversize = TooLarge(announced: Int(clamping: announced), status: status) }
            completionHandler(.cancel)
            cutOff(dataTask)
            return
        }
        state.withLock { $0.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // What the task has received so far, which may run far ahead of the callbacks waiting on
        // the delegate queue (libcurl does not wait for them): cut off as soon as either passes.
        let received = dataTask.countOfBytesReceived
        let cut = state.withLock { state -> Bool in
            guard state.oversize == nil else { return false }
            if state.data.count + data.count > limit || received > Int64(limit) {
                state.oversize = TooLarge(status: (state.response as? HTTPURLResponse)?.statusCode)
                state.data = Data()
                return true
            }
            state.data.append(data)
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
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(throwing: URLError(.dataLengthExceedsMaximum))
        task.cancel()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, data, response, oversize) = state.withLock {
            state -> (CheckedContinuation<(Data, URLResponse), any Error>?, Data, URLResponse?, TooLarge?) in
            defer { state.continuation = nil }
            return (state.continuation, state.data, state.response ?? task.response, state.oversize)
        }
        if oversize != nil {
            continuation?.resume(throwing: URLError(.dataLengthExceedsMaximum))
        } else if let error {
            continuation?.resume(throwing: Self.cutShort(error, data: data, response: response) ?? error)
        } else if let response {
            continuation?.resume(returning: (data, response))
        } else {
            continuation?.resume(throwing: URLError(.badServerResponse))
        }
    }
}

extension TaskDelegate {
    /// `networkConnectionLost` when `error` ended a body that stopped short of its
    /// `Content-Length` (the connection closed midway), as Apple's URLSession reports it: on
    /// Linux, libcurl's "partial file" reaches the app as `URLError.unknown`. Nil for any other
    /// error, and when the length cannot be compared with what arrived (an encoded body arrives
    /// decoded).
    static func cutShort(_ error: any Error, data: Data, response: URLResponse?) -> URLError? {
        guard (error as? URLError)?.code == .unknown, let response = response as? HTTPURLResponse,
            response.value(forHTTPHeaderField: "Content-Encoding") == nil,
            response.expectedContentLength > Int64(data.count)
        else { return nil }
        return URLError(.networkConnectionLost)
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
final class SessionDelegateRouter: NSObject, URLSessionDataDelegate, Sendable {
    /// Each running task's delegate, by task identifier.
    private let delegates = PrismLocked<[Int: TaskDelegate]>([:])

    /// Sends `task`'s events to `delegate` until it completes.
    func register(_ delegate: TaskDelegate, for task: URLSessionTask) {
        delegates.withLock { $0[task.taskIdentifier] = delegate }
    }

    func delegate(for task: URLSessionTask) -> TaskDelegate? {
        delegates.withLock { $0[task.taskIdentifier] }
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
        let delegate = delegates.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        delegate?.urlSession(session, task: task, didCompleteWithError: error)
    }
}
