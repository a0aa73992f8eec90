// All of Prism in one import.
@_exported import PrismArchitecture
@_exported import PrismNetwork
