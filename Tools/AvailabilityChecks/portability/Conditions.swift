// A condition guards a Linux-only use only when no Apple platform takes it.

import FoundationNetworking  // slip

#if os(Linux) || os(macOS)
import Glibc  // slip
#endif

#if os(Linux)
import Glibc
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if !canImport(Darwin)
import Glibc
#endif

#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

#if SOME_FLAG
// An unknown flag may be set on an Apple platform.
import Glibc  // slip
#endif

#if canImport(FoundationEssentials)
// Apple platforms may have FoundationEssentials one day: this is no guard.
import FoundationNetworking  // slip
#endif

#if os(Linux)
#if DEBUG
import Glibc
#endif
#endif

// In a comment `import Glibc` is not code.
