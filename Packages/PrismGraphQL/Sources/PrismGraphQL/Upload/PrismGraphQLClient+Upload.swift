import Foundation
@_spi(PrismInternals) import PrismHTTP

extension PrismGraphQLClient {
    /// Sends `operation` with `files`, as the GraphQL multipart request specification says, and
    /// decodes its response.
    ///
    /// ```swift
    /// let upload = PrismGraphQLQuery(
    ///     query: "mutation Upload($file: Upload!) { uploadFile(file: $file) { size } }",
    ///     operationName: "Upload"
    /// )
    /// let file = try PrismGraphQLFile(fileURL: reportURL, variable: "file", mimeType: "application/pdf")
    /// let response = try await graphql.upload(upload, files: [file], as: UploadData.self) { sent in
    ///     print("\(sent) bytes sent")
    /// }
    /// ```
    ///
    /// The request is a `multipart/form-data` POST: an `operations` field (the operation, with
    /// `null` at each file's ``PrismGraphQLFile/variable``), a `map` field (which part goes
    /// where), then one part per file, streamed from disk by the network client's transport with
    /// `progress` reporting the bytes sent. It goes through the network client's pipeline like
    /// every operation: its interceptors, authenticator (a 401 refreshes and sends again, once)
    /// and logging; it is never cached or retried. It carries `Apollo-Require-Preflight: true`, which servers with
    /// CSRF prevention (Apollo Server, others) require of multipart requests.
    ///
    /// - Returns: The response, whatever its status when its body is a GraphQL response.
    /// - Throws: ``PrismGraphQLError``: `encodingFailed` for variables that do not encode or two
    ///   files with one variable path, `requestFailed` when a file cannot be read (before
    ///   anything is sent), and the errors of ``execute(_:options:)->PrismGraphQLResponse<T>`` for the answer.
    public func upload<T: Decodable & Sendable>(
        _ operation: PrismGraphQLQuery,
        files: [PrismGraphQLFile],
        as type: T.Type,
        options: PrismRequestOptions = PrismRequestOptions(),
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void = { _ in }
    ) async throws -> PrismGraphQLResponse<T> {
        guard let template else {
            throw PrismGraphQLError(
                code: .invalidEndpoint,
                message: "The endpoint URL must be an absolute http or https URL with a host.",
                url: endpointURL,
                operationName: operation.operationName
            )
        }
        let form = try multipartForm(operation, files: files)
        var request = try GraphQLEndpoint(template: template, payload: Data()).makeHTTPRequest()
        request.body = nil
        request.headers["Content-Type"] = form.contentType
        request.headers["Apollo-Require-Preflight"] = "true"

        let response: PrismHTTPResponse
        do {
            response = try await networkClient.upload(
                request, body: .multipart(form), options: options, progress: progress)
        } catch {
            throw translated(error, query: operation)
        }
        let reply = Reply(body: response.body, statusCode: response.statusCode, headers: response.headers)
        guard
            (200..<300).contains(response.statusCode)
                || GraphQLResponseDecoding.isGraphQLResponse(
                    body: response.body, contentType: response.headers["Content-Type"])
        else {
            throw PrismGraphQLError(
                code: .unacceptableStatus,
                message: "The server answered \(response.statusCode) instead of a GraphQL response.",
                url: endpointURL,
                operationName: operation.operationName,
                statusCode: response.statusCode,
                headers: response.headers,
                body: response.body
            )
        }
        return try GraphQLResponseDecoding.decode(T.self, from: response.body, context: context(of: operation, reply))
    }

    /// The multipart form of `operation` and `files`: `operations`, `map`, then the files.
    private func multipartForm(
        _ operation: PrismGraphQLQuery, files: [PrismGraphQLFile]
    ) throws(PrismGraphQLError) -> PrismMultipartFormData {
        let document = try body(of: operation, sendingQuery: true, hash: nil)
        guard var operations = try? JSONSerialization.jsonObject(with: document) as? [String: Any] else {
            throw PrismGraphQLError(
                code: .encodingFailed, message: "The operation did not encode as a JSON object.", url: endpointURL,
                operationName: operation.operationName)
        }
        var map: [String: [String]] = [:]
        var seen: Set<String> = []
        for (index, file) in files.enumerated() {
            guard seen.insert(file.variable).inserted else {
                throw PrismGraphQLError(
                    code: .encodingFailed, message: "Two files go to the variable \(file.variable).",
                    url: endpointURL, operationName: operation.operationName)
            }
            operations = Self.placingNull(at: ["variables"] + file.pathComponents, in: operations)
            map[String(index)] = ["variables." + file.variable]
        }
        let operationsJSON: Data
        let mapJSON: Data
        do {
            operationsJSON = try JSONSerialization.data(withJSONObject: operations, options: [.sortedKeys])
            mapJSON = try JSONSerialization.data(withJSONObject: map, options: [.sortedKeys])
        } catch {
            throw PrismGraphQLError(
                code: .encodingFailed, message: "Could not encode the multipart request: \(error)",
                url: endpointURL, operationName: operation.operationName, underlying: error)
        }
        var form = PrismMultipartFormData()
        form.append(data: operationsJSON, name: "operations")
        form.append(data: mapJSON, name: "map")
        for (index, file) in files.enumerated() {
            switch file.content {
            case .data(let data):
                form.append(data: data, name: String(index), fileName: file.fileName, mimeType: file.mimeType)
            case .file(let url):
                do {
                    try form.append(fileURL: url, name: String(index), fileName: file.fileName, mimeType: file.mimeType)
                } catch {
                    throw PrismGraphQLError(
                        code: .requestFailed, message: "Cannot read \(url.path): \(error)", url: endpointURL,
                        operationName: operation.operationName, underlying: error)
                }
            }
        }
        return form
    }

    /// `object` with `null` at `path`: objects are made for missing names, and lists are
    /// lengthened with `null`s up to an index.
    static func placingNull(at path: [String], in object: [String: Any]) -> [String: Any] {
        guard let key = path.first else { return object }
        var object = object
        object[key] = path.count == 1 ? NSNull() : placingNull(at: Array(path.dropFirst()), inValue: object[key])
        return object
    }

    private static func placingNull(at path: [String], inValue value: Any?) -> Any {
        if let index = Int(path[0]) {
            var list = value as? [Any] ?? []
            while list.count <= index { list.append(NSNull()) }
            list[index] = path.count == 1 ? NSNull() : placingNull(at: Array(path.dropFirst()), inValue: list[index])
            return list
        }
        return placingNull(at: path, in: value as? [String: Any] ?? [:])
    }
}
