import Prism

/// The sync feature: `.start` sets the status and returns an effect that talks to the server
/// through a ``SyncConnection`` (PrismHTTP, with retries and a response cache); the effect sends
/// `.finished` or `.failed` back, and the reducer records the outcome.
///
/// The reducer stays pure and synchronous: all the waiting happens in the `.run` effect, off the
/// main actor. Starting a sync while one runs cancels the older one (`cancelInFlight`).
struct SyncReducer: PrismReducer {
    /// Identifies the running sync, so that a new one cancels it.
    private struct SyncID: Hashable, Sendable {}

    /// The server connection the effect uses.
    let connection: SyncConnection

    func reduce(into state: inout SyncState, action: SyncAction) -> PrismEffect<SyncAction> {
        switch action {
        case .start(let tasks):
            state.status = .syncing
            return .run { [connection] send in
                send(.finished(try await connection.sync(tasks)))
            } catch: { error, send in
                send(.failed(SyncConnection.describe(error)))
            }
            .cancellable(id: SyncID(), cancelInFlight: true)
        case .finished(let report):
            state.status = .synced
            state.lastSuccess = report
            // The user the settings feature signed in: one value, held by both features.
            state.syncedAs = state.user?.name
            return .none
        case .failed(let reason):
            state.status = .failed(reason)
            return .none
        }
    }
}
