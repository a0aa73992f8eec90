// The architecture half of Prism in one import: effects, the store, reducers and middleware,
// the router, and persistence.
@_exported import PrismEffects
@_exported import PrismPersistence
@_exported import PrismRouting
@_exported import PrismStore
