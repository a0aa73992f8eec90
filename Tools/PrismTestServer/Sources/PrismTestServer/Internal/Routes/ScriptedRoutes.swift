import HTTPTypes
import Hummingbird

/// `ANY /scripted/:name`: the answers a test scripted with ``PrismTestServer/script(_:_:)``, one
/// per request, the last repeated; 404 for a name never scripted.
struct ScriptedRoutes: RouteGroup {
    let state: ServerState

    func register(on router: Router<TestServerRequestContext>) {
        router.on("/scripted/:name", methods: anyMethod) { request, context -> Response in
            let name = context.parameter("name")
            guard let answer = self.state.nextScriptedResponse(name) else {
                return .jsonMessage("nothing is scripted for '\(name)'", status: .notFound)
            }
            var headers = HTTPFields()
            for (fieldName, value) in answer.headers {
                guard let name = HTTPField.Name(fieldName) else {
                    return .jsonMessage("'\(fieldName)' is not a valid header name", status: .internalServerError)
                }
                headers.append(HTTPField(name: name, value: value))
            }
            let status = HTTPResponse.Status(code: answer.status)
            if [204, 205, 304].contains(answer.status) || request.method == .head {
                return Response(status: status, headers: headers)
            }
            return Response(
                status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: answer.body)))
        }
    }
}
