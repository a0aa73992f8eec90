// All of Prism in one import.
@_exported import PrismArchitecture
