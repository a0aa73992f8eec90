import Foundation
import PrismPersistence
import PrismSupport

let credentialsReducer = PrismReduce<Credentials, String> { state, token in
    state.token = token
    return .none
}

/// Restores a store from the keychain through the middleware, sets its token and flushes:
/// prints "saved", or the flush's error with the code of the error underneath and of
/// `loadFailure`.
@MainActor
func keychainRestoreAndSave(service: String, key: String, token: String) async -> Never {
    let errors = ErrorLog()
    let persistence = PrismPersistMiddleware<Credentials, String>(
        strategy: PrismKeychainPersistence(service: service),
        key: key,
        onError: { errors.append($0) }
    )
    let store = PrismStore(restoringWith: persistence, default: Credentials(token: ""), reducer: credentialsReducer)
    store.send(token)
    do {
        try await persistence.flush()
        result("saved")
    } catch let error as PrismPersistenceError {
        let underlying = (error.underlying as? PrismPersistenceError)?.code.description ?? "-"
        let failure = persistence.loadFailure?.code.description ?? "-"
        result("error \(error.code) underlying=\(underlying) loadFailure=\(failure) reported=\(errors.codes)")
    } catch {
        outcome(error)
    }
}

/// The errors a middleware reported, in order.
final class ErrorLog: Sendable {
    private let errors = PrismLocked<[PrismPersistenceError]>([])

    func append(_ error: PrismPersistenceError) { errors.withLock { $0.append(error) } }

    var codes: String { errors.withLock { $0.map(\.code.description).joined(separator: ",") } }
}
