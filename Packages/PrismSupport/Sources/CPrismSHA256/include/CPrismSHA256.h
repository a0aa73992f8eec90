// SHA-256's compression function (FIPS 180-4, section 6.2.2), for PrismSupport's SHA256.
//
// In C rather than Swift because apps run Prism in debug builds too: unoptimized, this function
// in Swift hashes about 7 MB/s, in C about 100 MB/s (optimized, both about 210 MB/s), and a
// download is hashed as it arrives.
#ifndef CPRISM_SHA256_H
#define CPRISM_SHA256_H

#include <stddef.h>
#include <stdint.h>

/// Runs the compression function over `count` 64-byte blocks at `blocks`, updating `state`.
void prism_sha256_compress(uint32_t state[8], const uint8_t *blocks, size_t count);

#endif
