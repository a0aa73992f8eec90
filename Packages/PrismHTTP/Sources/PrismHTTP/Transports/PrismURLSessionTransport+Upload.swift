import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PrismURLSessionTransport {
    /// Sends `request` with `body`, reporting progress through URLSession's delegate.
    ///
    /// The body is first written to a temporary file (chunk by chunk, so a large form never
    /// sits in memory) and uploaded from it; the file is removed afterwards.
    public func upload(
        _ request: PrismHTTPRequest,
        body: PrismUploadBody,
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void
    ) async throws -> PrismHTTPResponse {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("prism-upload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw PrismHTTPError(
                code: .transportFailed, message: "Cannot create a temporary file for the upload.", url: request.url)
        }
        let handle = try FileHandle(forWritingTo: file)
        do {
            for try await chunk in body.chunks() { try handle.write(contentsOf: chunk) }
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }

        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.timeoutInterval = (request.timeout ?? configuration.requestTimeout).seconds

        let delegate = UploadDelegate(progress: progress, limit: configuration.maximumResponseBytes)
        let settings = session.configuration
        let uploadSession = URLSession(configuration: settings, delegate: delegate, delegateQueue: nil)
        defer { uploadSession.finishTasksAndInvalidate() }
        let task = uploadSession.uploadTask(with: urlRequest, fromFile: file)
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.setContinuation(continuation)
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch {
            throw Self.translate(error, url: request.url)
        }
        guard let http = response as? HTTPURLResponse else {
            throw PrismHTTPError(
                code: .transportFailed, message: "The response is not an HTTP response.", url: request.url)
        }
        var headers = PrismHTTPHeaders()
        for (name, value) in http.allHeaderFields { headers.add(name: "\(name)", value: "\(value)") }
        return PrismHTTPResponse(
            statusCode: http.statusCode, headers: headers, body: data, url: http.url ?? request.url)
    }
}

/// Collects an upload task's response and reports the bytes it sent.
private final class UploadDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let progress: @Sendable (Int64) -> Void
    private let limit: Int
    private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
    private var data = Data()
    private var response: URLResponse?

    init(progress: @escaping @Sendable (Int64) -> Void, limit: Int) {
        self.progress = progress
        self.limit = limit
    }

    func setContinuation(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
        lock.withLock { self.continuation = continuation }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        progress(totalBytesSent)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock { self.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = lock.withLock { () -> Bool in
            self.data.append(data)
            return self.data.count > limit
        }
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, data, response) = lock.withLock {
            () -> (CheckedContinuation<(Data, URLResponse), any Error>?, Data, URLResponse?) in
            defer { self.continuation = nil }
            return (self.continuation, self.data, self.response ?? task.response)
        }
        if let error {
            continuation?.resume(throwing: error)
        } else if let response {
            continuation?.resume(returning: (data, response))
        } else {
            continuation?.resume(throwing: URLError(.badServerResponse))
        }
    }
}
