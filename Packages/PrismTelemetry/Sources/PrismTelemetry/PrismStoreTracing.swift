// The Telemetry trait turns this on (Package.swift).
#if Telemetry
import Foundation
@_spi(PrismInternals) import PrismEffects
@_spi(PrismInternals) import PrismStore
import Tracing

/// Spans of a store's actions and effects, with swift-distributed-tracing: opt in per store.
///
/// ```swift
/// let store = PrismStore(initialState: AppState(), reducer: AppFeature())
/// PrismStoreTracing.trace(store)
/// store.send(.refresh)  // a span "send refresh"; each effect it starts, a span "effect" within it
/// ```
///
/// Every send made through the store or a store scoped from it is a span named by the action's
/// case (`send refresh`: the case's name, never its associated values, which can carry what the
/// user typed), with the attribute `prism.action`. Every effect task an action starts is a span
/// `effect`, a child of that action's span, from the task's start to its end; the requests the
/// effect sends through an instrumented client (``PrismTracingInstrument``) are its children in
/// turn. Actions an effect sends back are reduced within the effect's span, not spans of their
/// own.
///
/// A store without it pays nothing. A traced store's send takes the slower path the inspector's
/// call-site tracing takes, and a span per send: fine for an app's actions, which come at the
/// rate of a user's taps, not for a store that reduces thousands of actions a second.
public enum PrismStoreTracing {
    /// Traces `store`'s sends and effects into `tracer` (the bootstrapped one when nil).
    /// Call it on a root store, once; with the no-op tracer (nothing bootstrapped), it does
    /// nothing.
    @MainActor
    public static func trace<State: Sendable, Action: Sendable>(
        _ store: PrismStore<State, Action>, tracer: (any Tracer)? = nil
    ) {
        let chosen = tracer ?? InstrumentationSystem.tracer
        if chosen is NoOpTracer { return }
        store.tools.instrument(
            aroundSend: { action, send in
                let name = caseName(of: action)
                let span = chosen.startSpan(
                    "send \(name)", context: InstrumentationContext.current ?? .topLevel, ofKind: .internal)
                if span.isRecording { span.attributes["prism.action"] = name }
                defer { span.end() }
                return InstrumentationContext.$current.withValue(span.context) { send() }
            },
            aroundEffect: { body in
                let span = chosen.startSpan(
                    "effect", context: InstrumentationContext.current ?? .topLevel, ofKind: .internal)
                await InstrumentationContext.$current.withValue(span.context) { await body() }
                span.end()
            }
        )
    }

    /// The name of `action`'s case (`refresh` for `.refresh`, `loaded` for `.loaded(items)`),
    /// without its associated values; the type's name for what is not an enum.
    static func caseName(of action: Any) -> String {
        let mirror = Mirror(reflecting: action)
        guard mirror.displayStyle == .enum else { return String(describing: type(of: action)) }
        if let label = mirror.children.first?.label { return label }
        // A case without a payload prints as its name, unless the type prints itself.
        if action is any CustomStringConvertible || action is any CustomDebugStringConvertible {
            return String(describing: type(of: action))
        }
        return String(describing: action)
    }
}
#endif
