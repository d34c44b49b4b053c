// `twinrt run --out DIR`: graph output i is written as DIR/output_<i>.npy. A sequence
// becomes output_<i>_<j>.npy per element, an optional its value (nothing when empty).
// bfloat16 has no NumPy dtype: it is widened to float32 (exact) with a warning.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "twinrt/tensor.h"

namespace twinrt::cli {

// Creates DIR. Writes every output it can; the error lists those it could not write.
// `written` receives the paths written.
Status write_outputs(const std::string& dir, const std::vector<std::pair<std::string, Value>>& outputs,
                     std::vector<std::string>* written);

}  // namespace twinrt::cli
