@_exported import CasePathsCore
@_exported import Dependencies
@_exported import IdentifiedCollections
@_exported import PrismEffects
