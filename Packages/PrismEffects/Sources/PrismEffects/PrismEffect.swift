/// A description of the work a reducer wants done after it changed state.
///
/// A reducer returns a `PrismEffect` from every action. The store runs the effect: actions from
/// ``send(_:)`` and ``sequence(_:)`` are reduced right after the current action, before
/// `send` returns; ``run(priority:operation:catch:fileID:line:)`` runs asynchronously and
/// feeds the actions it sends back into the store. Effects combine with ``merge(_:)-(PrismEffect<Action>...)``
/// (concurrently) and ``concatenate(_:)-(PrismEffect<Action>...)`` (one after another), and can be
/// cancelled by id.
///
/// ```swift
/// case .fetchRemoteCount:
///     state.isLoading = true
///     return .run { send in
///         let count = try await CounterAPI.fetchCount()
///         send(.remoteCountLoaded(count))
///     }
/// ```
///
/// An effect is a value: building one starts nothing. Nothing runs until a store receives it.
public struct PrismEffect<Action: Sendable>: Sendable {
    /// `nil` for `.none`: the common effect costs nothing to make, test, copy or drop.
    @usableFromInline
    let storage: Storage?

    @inlinable
    init(storage: Storage?) {
        self.storage = storage
    }

    init(operation: Operation) {
        if case .none = operation {
            self.storage = nil
        } else {
            self.storage = Storage(operation)
        }
    }

    var operation: Operation {
        storage?.operation ?? .none
    }

    @usableFromInline
    final class Storage: Sendable {
        let operation: Operation

        init(_ operation: Operation) {
            self.operation = operation
        }
    }

    enum Operation: Sendable {
        case none
        case send(Action)
        case sequence([Action])
        case run(Run)
        case wait(@Sendable () async throws -> Void)
        case merge([PrismEffect])
        case concatenate([PrismEffect])
        case cancellable(PrismCancelID, cancelInFlight: Bool, PrismEffect)
        case cancel(PrismCancelID)
    }

    struct Run: Sendable {
        let priority: TaskPriority?
        let operation: @Sendable (Send<Action>) async throws -> Void
        let handler: (@Sendable (any Error, Send<Action>) async -> Void)?
        let fileID: StaticString
        let line: UInt
    }
}

extension PrismEffect {
    /// An effect that does nothing.
    ///
    /// The store starts no task for it.
    @inlinable
    public static var none: Self { Self(storage: nil) }

    /// Whether this effect does nothing at all.
    @inlinable
    public var isNone: Bool { storage == nil }

    /// An effect that sends one action immediately.
    ///
    /// The store reduces `action` right after the action that returned this effect, before
    /// `send` returns to its caller, so state is up to date when the caller reads it.
    ///
    /// ```swift
    /// case .validate:
    ///     return .send(state.email.contains("@") ? .validationPassed : .validationFailed)
    /// ```
    public static func send(_ action: Action) -> Self {
        Self(operation: .send(action))
    }

    /// An effect that sends several actions immediately, in order.
    ///
    /// Like ``send(_:)`` for each action, one after the other.
    ///
    /// ```swift
    /// return .sequence([.startLoading, .clearError, .fetchData])
    /// ```
    public static func sequence(_ actions: [Action]) -> Self {
        actions.isEmpty ? .none : Self(operation: .sequence(actions))
    }

    /// An effect that runs asynchronous work and can send actions back to the store.
    ///
    /// `operation` runs in a new task, off the main actor. Call `send` (no `await` needed) to
    /// feed an action back; it is reduced on the main actor in the order it was sent.
    ///
    /// An error thrown by `operation` is never dropped silently. If you pass `catch`, it
    /// receives the error and can send an action; otherwise the error is reported as a
    /// ``PrismEffectError`` that names the file and line where the effect was created (see
    /// ``PrismEffectError/unhandledErrorHandler``). Errors thrown because the effect was
    /// cancelled are not errors and are ignored.
    ///
    /// ```swift
    /// return .run { send in
    ///     let users = try await api.getUsers()
    ///     send(.usersLoaded(users))
    /// } catch: { error, send in
    ///     send(.fetchFailed(error.localizedDescription))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The priority of the task that runs `operation`.
    ///   - operation: The work. It receives a ``Send`` to feed actions back to the store.
    ///   - handler: Receives an error `operation` throws, unless the effect was cancelled.
    ///   - fileID: Where the effect was created, for error reports.
    ///   - line: Where the effect was created, for error reports.
    public static func run(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
        catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Self {
        Self(
            operation: .run(
                Run(priority: priority, operation: operation, handler: handler, fileID: fileID, line: line)
            )
        )
    }

    /// An effect that runs several effects at the same time.
    ///
    /// Immediate actions (``send(_:)``) of the merged effects are sent in argument order; the
    /// asynchronous ones run concurrently. The merged effect finishes when all of them have.
    public static func merge(_ effects: Self...) -> Self {
        merge(effects)
    }

    /// An effect that runs a collection of effects at the same time.
    ///
    /// The array form of ``merge(_:)-(PrismEffect<Action>...)``.
    public static func merge(_ effects: [Self]) -> Self {
        combined(effects, Operation.merge) {
            if case .merge(let parts) = $0 { parts } else { nil }
        }
    }

    /// An effect that runs several effects one after another.
    ///
    /// Each effect starts when the previous one has finished. Leading immediate actions are
    /// sent before `send` returns, like ``send(_:)``; the rest runs in one task. Cancelling the
    /// concatenation stops it before its next part.
    ///
    /// ```swift
    /// return .concatenate(
    ///     .send(.showLoading),
    ///     .run { send in send(.saved(try await api.save(draft))) },
    ///     .send(.hideLoading)
    /// )
    /// ```
    public static func concatenate(_ effects: Self...) -> Self {
        concatenate(effects)
    }

    /// An effect that runs a collection of effects one after another.
    ///
    /// The array form of ``concatenate(_:)-(PrismEffect<Action>...)``.
    public static func concatenate(_ effects: [Self]) -> Self {
        combined(effects, Operation.concatenate) {
            if case .concatenate(let parts) = $0 { parts } else { nil }
        }
    }

    /// `effects` combined by `combine` (merged or concatenated): `.none`s dropped, the parts of
    /// an effect combined the same way (`partsOf`) spliced in, and no combination made of a
    /// single effect or of none.
    private static func combined(
        _ effects: [Self],
        _ combine: ([Self]) -> Operation,
        partsOf: (Operation) -> [Self]?
    ) -> Self {
        let parts = effects.flatMap { effect -> [Self] in
            if case .none = effect.operation { return [] }
            return partsOf(effect.operation) ?? [effect]
        }
        switch parts.count {
        case 0: return .none
        case 1: return parts[0]
        default: return Self(operation: combine(parts))
        }
    }

    /// This effect and `other`, run at the same time.
    @inlinable
    public func merge(with other: Self) -> Self {
        if other.isNone { return self }
        if isNone { return other }
        return .merge([self, other])
    }

    /// This effect, then `other` once this one has finished.
    public func concatenate(with other: Self) -> Self {
        .concatenate([self, other])
    }
}
