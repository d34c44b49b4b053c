// Shortest decimal text of a float or double, written exactly as std::to_chars(value)
// writes it: the fewest significant digits that read back to the same value (the nearest
// such decimal), in fixed or scientific notation, whichever is shorter (fixed on a tie).
//
// Built on snprintf/strtod, which round correctly in glibc and musl alike, because
// emscripten's libc++ has no floating-point std::to_chars: the WebAssembly build must
// write the same text as the native one.
#pragma once

#include <string>

namespace twinrt::cast {

// Finite values only (Cast writes NaN and infinities itself).
std::string shortest_decimal(float v);
std::string shortest_decimal(double v);

// printf's "%.*g" with `digits` significant digits (std::to_chars's general format).
std::string general_decimal(double v, int digits);

}  // namespace twinrt::cast
