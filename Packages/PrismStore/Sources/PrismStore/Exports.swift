@_exported import PrismEffects
