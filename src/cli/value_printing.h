// One-line descriptions of runtime values for `twinrt run`:
//   float32[1,1000] min=-3.2 max=9.1 mean=0.004
//   sequence of 2 float32 tensors, then one indented line per element
//   optional: empty / optional holding <description>
#pragma once

#include <string>
#include <vector>

#include "twinrt/tensor.h"

namespace twinrt::cli {

std::string describe_tensor(const Tensor& t);
// The first line describes the value; sequences add one line per element.
std::vector<std::string> describe_value(const Value& v);

}  // namespace twinrt::cli
