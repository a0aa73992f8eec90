// Test clocks (`TestClock`, `ImmediateClock`, `UnimplementedClock`) for features that wait.
@_exported import Clocks
