@_exported import Dependencies
@_exported import IdentifiedCollections
@_exported import PrismEffects
