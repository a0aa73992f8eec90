// The architecture half of Prism in one import: effects, the store, reducers and middleware.
@_exported import PrismEffects
@_exported import PrismStore
