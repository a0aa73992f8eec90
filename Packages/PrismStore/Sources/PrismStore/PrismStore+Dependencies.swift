import Dependencies

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
        let dependencies = withDependencies(prepareDependencies) {
            withEscapedDependencies { $0 }
        }
        self.init(initialState: initialState) { state, action in
            dependencies.yield { reducer.reduce(into: &state, action: action) }
        }
        core.root?.setEffectContext { body in
            await dependencies.yield { await body() }
        }
        hearReplacements { reducer.stateReplaced($0) }
        core.root?.reducerType = R.self
        reducer.storeAttached(reading: storageReader())
    }
}

@_spi(PrismInternals)
extension PrismStore {
    /// Starts the effect tasks of this root store with a preference for `executor`: their jobs,
    /// and their child tasks', run there. PrismTestStore's executor counts them, so that its test
    /// clock can wait until they have settled. Not a stable API; a scoped store ignores it.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public func _setEffectExecutor(_ executor: (any TaskExecutor)?) {
        core.root?.setEffectExecutor(executor)
    }
}
