@_exported import IdentifiedCollections
@_exported import PrismEffects
