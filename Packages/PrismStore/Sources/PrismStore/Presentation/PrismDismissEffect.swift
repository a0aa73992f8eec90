import Dependencies
import IssueReporting

/// Dismisses the feature whose effect calls it: how a presented feature (a sheet, a pushed
/// screen) closes itself when its work is done. Read it as a dependency in the presented
/// feature's reducer and call it from an effect:
///
/// ```swift
/// @Dependency(\.dismiss) var dismiss
///
/// case .saved:
///     return .run { _ in await dismiss() }
/// ```
///
/// The parent then hears `.dismiss` (``PrismPresentationAction/dismiss``), before the presented
/// state goes and its effects are cancelled. Called from an effect of a feature that is not
/// presented (by ``PrismReducer/presents(_:action:toPresentationAction:then:fileID:filePath:line:column:)``),
/// it does nothing and reports an issue (a test fails on it), naming where it was called.
public struct PrismDismissEffect: Sendable {
    /// The dismissal of the presented feature whose effect runs now.
    @TaskLocal static var current: (@Sendable () -> Void)?

    private let override: (@Sendable () async -> Void)?

    /// The dismissal a presenting reducer gives its feature's effects.
    init() {
        override = nil
    }

    /// A dismissal that runs `dismiss`: for a test of a feature on its own, or a preview.
    public init(_ dismiss: @escaping @Sendable () async -> Void) {
        override = dismiss
    }

    /// Dismisses the presented feature whose effect calls it.
    public func callAsFunction(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) async {
        if let override {
            await override()
            return
        }
        guard let dismiss = Self.current else {
            reportIssue(
                """
                dismiss() was called from an effect of a feature that is not presented: nothing was \
                dismissed. Present the feature with presents(_:action:) (or a stack's forEach), or give a \
                test its own with PrismDismissEffect { ... }.
                """, fileID: fileID, filePath: filePath, line: line, column: column)
            return
        }
        dismiss()
    }
}

private enum PrismDismissKey: DependencyKey {
    static let liveValue = PrismDismissEffect()
    static let testValue = PrismDismissEffect()
}

extension DependencyValues {
    /// Dismisses the presented feature whose effect calls it (see ``PrismDismissEffect``).
    public var dismiss: PrismDismissEffect {
        get { self[PrismDismissKey.self] }
        set { self[PrismDismissKey.self] = newValue }
    }
}
