// The header of a .npy file is a Python dict literal:
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// This parses exactly that subset (strings, True/False, tuples of ints), checking
// every character read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "twinrt/status.h"

namespace twinrt::io {

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

Result<NpyHeader> parse_npy_header(std::string_view text);
std::string format_npy_header(const NpyHeader& h);  // the dict, without padding

}  // namespace twinrt::io
