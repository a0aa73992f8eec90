import Dependencies
import PrismSupport

extension PrismStore {
    /// Creates a store whose reducer and effects see the dependencies that
    /// `prepareDependencies` sets, on top of the ones in effect where the store is created.
    ///
    /// A reducer reaches its clock, date, UUIDs, random numbers or HTTP client through
    /// `@Dependency` (swift-dependencies): live values in the app, values a test chooses in
    /// tests. Every action this store reduces, and every effect it starts (the `.run` closures,
    /// and anything they start), sees the values set here, whichever task sends or runs them:
    ///
    /// ```swift
    /// struct SearchFeature: PrismReducer {
    ///     @Dependency(\.continuousClock) var clock
    ///
    ///     func reduce(into state: inout SearchState, action: SearchAction) -> PrismEffect<SearchAction> {
    ///         switch action {
    ///         case .queryChanged(let query):
    ///             state.query = query
    ///             return .run { [clock] send in
    ///                 try await clock.sleep(for: .milliseconds(300))
    ///                 send(.search(query))
    ///             }
    ///             .cancellable(id: SearchID(), cancelInFlight: true)
    ///         ...
    ///         }
    ///     }
    /// }
    ///
    /// let clock = TestClock()
    /// let store = PrismStore(initialState: SearchState(), reducer: SearchFeature()) {
    ///     $0.continuousClock = clock
    /// }
    /// ```
    ///
    /// Overrides belong to the store: two stores in two parallel tests never see each other's.
    /// `PrismTestStore(initialState:reducer:withDependencies:)` does the same for tests, where a
    /// dependency that was not overridden and has no test value fails the test.
    ///
    /// A store made without this initializer reduces its actions with the dependencies in
    /// effect where `send` is called (live values in an app).
    public convenience init<R: PrismReducer>(
        initialState: State,
        reducer: R,
        withDependencies prepareDependencies: (inout DependencyValues) -> Void
    ) where R.State == State, R.Action == Action {
        var overrides: [String] = []
        let dependencies = withDependencies {
            let before = $0
            prepareDependencies(&$0)
            overrides = DependencyOverrides.typeNames(setIn: $0, over: before)
        } operation: {
            withEscapedDependencies { $0 }
        }
        self.init(initialState: initialState) { state, action in
            dependencies.yield { reducer.reduce(into: &state, action: action) }
        }
        core.root?.setEffectContext { body in
            await dependencies.yield { await body() }
        }
        core.root?.madeWith.reducerType = R.self
        core.root?.madeWith.dependencyOverrides = overrides
    }
}

/// What a store's `withDependencies` closure set, for a tool that writes tests of the store.
enum DependencyOverrides {
    /// The types of the values `after` holds that `before` did not, as Swift names them,
    /// sorted. Read through `Mirror` from swift-dependencies' storage (a dictionary of values by
    /// key): empty should its layout change.
    static func typeNames(setIn after: DependencyValues, over before: DependencyValues) -> [String] {
        let old = storage(of: before)
        var names: Set<String> = []
        for (key, value) in storage(of: after) {
            if let previous = old[key], sameValue(previous, value) { continue }
            names.insert(String(reflecting: type(of: value)))
        }
        return names.sorted()
    }

    private static func storage(of values: DependencyValues) -> [ObjectIdentifier: any Sendable] {
        for child in Mirror(reflecting: values).children where child.label == "storage" {
            return child.value as? [ObjectIdentifier: any Sendable] ?? [:]
        }
        return [:]
    }

    /// Whether the two are the same object, or values of one type that are equal (when
    /// `Equatable`); a value of another kind counts as changed.
    private static func sameValue(_ a: any Sendable, _ b: any Sendable) -> Bool {
        if type(of: a) is AnyClass, type(of: b) is AnyClass {
            return (a as AnyObject) === (b as AnyObject)
        }
        func isEqual<T>(_ a: T) -> Bool {
            guard let b = b as? T, let isEqual = equality(of: T.self) else { return false }
            return isEqual(a, b)
        }
        return isEqual(a)
    }
}
