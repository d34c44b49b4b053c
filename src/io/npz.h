// NumPy .npz archives (np.savez, np.savez_compressed): a zip file of .npy members.
// Reads stored and deflate members (twinrt's own inflate, see inflate.h), zip64 sizes
// and offsets; checks each member's CRC-32. Encrypted members, other compression
// methods and multi-disk archives are refused with a message.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/resource_limits.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::io {

struct NpzMember {
  std::string name;  // the array's name: the member's file name without ".npy"
  Tensor tensor;
};

// Members in archive order. `source` names the archive in error messages. Every member's
// size as the zip directory declares it is checked against limits.max_tensor_bytes, and
// their sum against limits.max_memory_bytes, before any member is inflated (a few KiB of
// deflate can declare gigabytes).
Result<std::vector<NpzMember>> parse_npz(std::string_view bytes, const std::string& source,
                                         const ResourceLimits& limits = current_limits());
// As parse_npz; an archive larger than limits.max_memory_bytes is refused before it is read.
Result<std::vector<NpzMember>> read_npz_file(const std::string& path,
                                             const ResourceLimits& limits = current_limits());

// CRC-32 (IEEE 802.3, as zip uses it).
uint32_t crc32(std::string_view bytes);

}  // namespace twinrt::io
