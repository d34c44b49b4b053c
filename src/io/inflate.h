// DEFLATE (RFC 1951) decompression, twinrt's own, for .npz archives written by
// np.savez_compressed. Written for bounded, checked decoding rather than speed: every
// read is bounds-checked and the output may not exceed the size the archive declares.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "twinrt/status.h"

namespace twinrt::io {

// Decompresses a raw DEFLATE stream (no zlib/gzip header) that must inflate to exactly
// `expected_size` bytes. Errors (kInvalidArgument) say what in the stream was wrong.
Result<std::string> inflate_raw(std::string_view compressed, size_t expected_size);

}  // namespace twinrt::io
