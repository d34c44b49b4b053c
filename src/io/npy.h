// NumPy .npy files (format versions 1.0, 2.0 and 3.0): the way users hand tensors to
// `twinrt run` and get outputs back.
//
// Supported: little-endian numeric dtypes (float16/32/64, int8..64, uint8..64,
// complex64/128) and bool, C order. Refused with a message naming the problem:
// fortran_order arrays, big-endian data, structured/object/string dtypes, truncated files.
// bfloat16 has no NumPy dtype and is refused on write.
#pragma once

#include <string>
#include <string_view>

#include "ir/resource_limits.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::io {

// `source` names the bytes in error messages (a file path, "archive.npz:x.npy").
Result<Tensor> parse_npy(std::string_view bytes, const std::string& source);
// A file larger than limits.max_tensor_bytes is refused before it is read.
Result<Tensor> read_npy_file(const std::string& path, const ResourceLimits& limits = current_limits());

Result<std::string> serialize_npy(const Tensor& t);
Status write_npy_file(const std::string& path, const Tensor& t);

// The NumPy descr for a dtype ("<f4", "|b1"); empty when NumPy has none.
std::string npy_descr(DataType dtype);

}  // namespace twinrt::io
