#pragma once

namespace twinrt::cli {

// Bumped by hand at releases; `twinrt --version` prints it.
inline constexpr const char* kVersion = "0.1.0";

}  // namespace twinrt::cli
