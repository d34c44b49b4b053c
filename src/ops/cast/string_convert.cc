#include "ops/cast/string_convert.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "ops/cast/element_convert.h"
#include "ops/cast/shortest_decimal.h"

namespace twinrt::cast {
namespace {

bool equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// digits [. digits] [(e|E) [sign] digits], at least one mantissa digit.
bool is_decimal_literal(std::string_view s) {
  size_t i = 0, mantissa_digits = 0;
  while (i < s.size() && is_digit(s[i])) ++i, ++mantissa_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < s.size() && is_digit(s[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == s.size();
}

Status not_a_number(std::string_view text) {
  return invalid_argument("cannot convert string \"" + std::string(text) + "\" to a number");
}

// The text as the nearest double (overflow gives +-inf, underflow +-0 or a subnormal).
Result<double> parse_double(std::string_view text) {
  std::string_view body = text;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  double magnitude;
  if (equals_ignore_case(body, "nan")) {
    magnitude = std::numeric_limits<double>::quiet_NaN();
  } else if (equals_ignore_case(body, "inf") || equals_ignore_case(body, "infinity")) {
    magnitude = std::numeric_limits<double>::infinity();
  } else if (is_decimal_literal(body)) {
    // strtod rounds correctly (glibc and musl alike); the grammar was checked above, so
    // it consumes everything unless the C locale's decimal point was changed.
    std::string copy(body);
    char* end = nullptr;
    magnitude = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size()) return not_a_number(text);
  } else {
    return not_a_number(text);
  }
  return negative ? -magnitude : magnitude;
}

template <class I>
Result<I> parse_integer(std::string_view text) {
  using Wide = std::conditional_t<std::is_signed_v<I>, int64_t, uint64_t>;
  std::string_view digits = text;
  if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
  Wide wide = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), wide);
  if (ec == std::errc() && end == digits.data() + digits.size() &&
      wide >= static_cast<Wide>(std::numeric_limits<I>::lowest()) &&
      wide <= static_cast<Wide>(std::numeric_limits<I>::max()))
    return static_cast<I>(wide);
  ASSIGN_OR_RETURN(double d, parse_double(text));  // "2.5", "1e3", out of range
  return saturating_cast<I>(d);
}

// Shortest text that converts back to the same float16/bfloat16 (which std::to_chars does
// not know): the fewest significant digits that round-trip, then written as the shortest
// text of that decimal as a float (a decimal of at most 6 digits survives the float).
template <class T>
std::string shortest_half_text(T v) {
  const float f = math::to_float(v);
  for (int digits = 1; digits < 9; ++digits) {
    auto back = parse_double(general_decimal(f, digits));
    if (back.is_ok() && convert_element<T>(back.value()).bits == v.bits)
      return shortest_decimal(static_cast<float>(back.value()));
  }
  return shortest_decimal(f);  // 9 digits always round-trip a float
}

}  // namespace

template <class T>
Result<T> parse_text(std::string_view text) {
  if constexpr (std::is_same_v<T, bool>) {
    if (equals_ignore_case(text, "true")) return true;
    if (equals_ignore_case(text, "false")) return false;
    ASSIGN_OR_RETURN(double d, parse_double(text));
    return d != 0;
  } else if constexpr (std::is_integral_v<T>) {
    return parse_integer<T>(text);
  } else {
    ASSIGN_OR_RETURN(double d, parse_double(text));
    return double_to_float<T>(d);
  }
}

template <class T>
std::string format_text(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "1" : "0";
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(v);
  } else {
    const double d = float_to_double(v);
    if (d != d) return "NaN";
    if (std::isinf(d)) return d > 0 ? "INF" : "-INF";
    if constexpr (is_half_v<T>) {
      return shortest_half_text(v);
    } else {
      return shortest_decimal(v);
    }
  }
}

#define TWINRT_CAST_TEXT(T)                                   \
  template Result<T> parse_text<T>(std::string_view text); \
  template std::string format_text<T>(T v);
TWINRT_CAST_TEXT(float)
TWINRT_CAST_TEXT(double)
TWINRT_CAST_TEXT(Float16)
TWINRT_CAST_TEXT(BFloat16)
TWINRT_CAST_TEXT(int8_t)
TWINRT_CAST_TEXT(int16_t)
TWINRT_CAST_TEXT(int32_t)
TWINRT_CAST_TEXT(int64_t)
TWINRT_CAST_TEXT(uint8_t)
TWINRT_CAST_TEXT(uint16_t)
TWINRT_CAST_TEXT(uint32_t)
TWINRT_CAST_TEXT(uint64_t)
TWINRT_CAST_TEXT(bool)
#undef TWINRT_CAST_TEXT

}  // namespace twinrt::cast
