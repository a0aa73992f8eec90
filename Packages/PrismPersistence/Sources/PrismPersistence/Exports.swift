@_exported import PrismStore
