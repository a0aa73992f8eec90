// The architecture half of Prism in one import: effects, the store, reducers and middleware,
// and the router.
@_exported import PrismEffects
@_exported import PrismRouting
@_exported import PrismStore
