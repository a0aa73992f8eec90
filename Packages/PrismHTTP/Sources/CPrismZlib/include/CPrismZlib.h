// Request bodies compressed with the system's zlib (libz on Apple platforms and Linux), for
// PrismHTTP's PrismContentCoding. zlib's own header stays in the C file: its initialisers are
// macros Swift cannot call.
#ifndef CPRISM_ZLIB_H
#define CPRISM_ZLIB_H

#include <stddef.h>

/// The container zlib writes around the DEFLATE data (RFC 1951).
enum prism_zlib_format {
    /// A gzip member (RFC 1952): the `gzip` content coding.
    prism_zlib_gzip = 0,
    /// A zlib stream (RFC 1950): the `deflate` content coding (RFC 9110 §8.4.1.2).
    prism_zlib_zlib = 1,
};

/// The largest output `prism_zlib_compress` can write for `length` input bytes.
size_t prism_zlib_bound(size_t length);

/// Compresses the `length` bytes at `input` whole, in `format`, at zlib's default level, into
/// the `capacity` bytes at `output` (at least `prism_zlib_bound(length)`), and sets `*written`.
/// Returns 0 (`Z_OK`), or zlib's error code (negative) when it failed.
int prism_zlib_compress(
    const void *input, size_t length, enum prism_zlib_format format, void *output, size_t capacity,
    size_t *written);

#endif
