// One-shot compression with zlib's deflate (see include/CPrismZlib.h).
#include "CPrismZlib.h"

#include <limits.h>
#include <string.h>
#include <zlib.h>

// gzip's header and trailer (RFC 1952: 10 and 8 bytes) against zlib's (RFC 1950: 2 and 4), and
// slack: compressBound counts zlib's.
static const size_t gzip_overhead = 18 + 64;

size_t prism_zlib_bound(size_t length) {
    // deflate's worst case: 5 bytes per 16 KiB stored block (what compressBound counts), on
    // every platform's size_t.
    return length + (length >> 12) + (length >> 14) + (length >> 25) + 13 + gzip_overhead;
}

int prism_zlib_compress(
    const void *input, size_t length, enum prism_zlib_format format, void *output, size_t capacity,
    size_t *written) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    // windowBits 15 (32 KiB); +16 asks for a gzip member instead of a zlib stream.
    int window_bits = format == prism_zlib_gzip ? 15 + 16 : 15;
    int status = deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
    if (status != Z_OK) {
        return status;
    }
    const unsigned char *next_in = input;
    unsigned char *next_out = output;
    size_t left_in = length;
    size_t left_out = capacity;
    // avail_in and avail_out are 32-bit: a body past 4 GiB goes in slices.
    do {
        uInt in_slice = left_in > UINT_MAX ? UINT_MAX : (uInt)left_in;
        uInt out_slice = left_out > UINT_MAX ? UINT_MAX : (uInt)left_out;
        stream.next_in = (Bytef *)next_in;
        stream.avail_in = in_slice;
        stream.next_out = next_out;
        stream.avail_out = out_slice;
        int flush = left_in == in_slice ? Z_FINISH : Z_NO_FLUSH;
        status = deflate(&stream, flush);
        size_t consumed = in_slice - stream.avail_in;
        size_t produced = out_slice - stream.avail_out;
        next_in += consumed;
        left_in -= consumed;
        next_out += produced;
        left_out -= produced;
        if (status == Z_STREAM_END) {
            break;
        }
        if (status != Z_OK && status != Z_BUF_ERROR) {
            deflateEnd(&stream);
            return status;
        }
        if (left_out == 0) {
            // Past the bound: cannot happen with prism_zlib_bound's capacity.
            deflateEnd(&stream);
            return Z_BUF_ERROR;
        }
    } while (1);
    *written = capacity - left_out;
    deflateEnd(&stream);
    return Z_OK;
}
