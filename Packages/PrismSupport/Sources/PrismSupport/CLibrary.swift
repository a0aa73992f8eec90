// The platform's C library, for every module that imports PrismSupport: one `#if` instead of one
// in each file that calls `clock_gettime`, `open`, `flock`, `write` or `pthread_*`. Imported with
// `@preconcurrency` where its globals (`stderr`, `errno`) predate Sendable.
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported @preconcurrency import Glibc
#elseif canImport(Musl)
@_exported @preconcurrency import Musl
#elseif canImport(Android)
@_exported @preconcurrency import Android
#else
#error("Prism needs a C library: Darwin, Glibc, Musl or Android.")
#endif
