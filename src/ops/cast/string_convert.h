// Numbers to and from text for Cast with string tensors.
//
// Text -> number accepts decimal and scientific notation ("3.14", "-1E8", "+.5"), and
// case-insensitively "NaN", "INF", "+INF", "-INF" (and "infinity"). Integers parse
// exactly; a non-integral or out-of-range text converts as a float and saturates. bool
// accepts "true"/"false" or any number (non-zero is true). Anything else is an error.
//
// Number -> text writes the shortest decimal that reads back to the same value of the
// source type (what numpy's str gives: "0.039187793" for that float), "NaN", "INF" and
// "-INF" for the special values, and "1"/"0" for bool.
#pragma once

#include <string>
#include <string_view>

#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt::cast {

// T: every numeric type and bool.
template <class T>
Result<T> parse_text(std::string_view text);

template <class T>
std::string format_text(T v);

}  // namespace twinrt::cast
