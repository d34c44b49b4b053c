#include "ops/cast/shortest_decimal.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace twinrt::cast {
namespace {

// |value| = 0.d1 d2 ... dn x 10^point: `digits` without leading or trailing zeros.
struct Decimal {
  std::string digits;
  int point = 0;
};

// The `precision` significant digits of |v| that printf rounds to.
Decimal rounded(double v, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", precision - 1, v < 0 ? -v : v);
  Decimal d;
  const char* p = buf;
  for (; *p != 'e'; ++p)
    if (*p != '.') d.digits += *p;
  d.point = std::atoi(p + 1) + 1;
  return d;
}

// One unit more or less in the last of the decimal's digits (carries and borrows
// propagate; 999 + 1 becomes 1000 with the point moved).
Decimal step(Decimal d, int direction) {
  for (size_t i = d.digits.size(); i-- > 0;) {
    char& c = d.digits[i];
    if (direction > 0 && c != '9') { ++c; return d; }
    if (direction < 0 && c != '0') {
      if (--c == '0' && i == 0) {  // 1000 - 1: 999 with the point moved
        d.digits.erase(0, 1);
        d.digits += '9';
        --d.point;
      }
      return d;
    }
    c = direction > 0 ? '0' : '9';
  }
  if (direction > 0) {  // all nines: 10^n
    d.digits.insert(d.digits.begin(), '1');
    d.digits.pop_back();
    ++d.point;
  }
  return d;
}

std::string scientific_text(const Decimal& d) {
  std::string s(1, d.digits[0]);
  if (d.digits.size() > 1) s += "." + d.digits.substr(1);
  int e = d.point - 1;
  s += e < 0 ? "e-" : "e+";
  if (e < 0) e = -e;
  if (e < 10) s += '0';
  return s + std::to_string(e);
}

// An integral value prints all its digits exactly (as std::to_chars does), not the shortest
// digits padded with zeros.
std::string fixed_text(const Decimal& d, double v) {
  const int n = static_cast<int>(d.digits.size());
  if (d.point <= 0) return "0." + std::string(static_cast<size_t>(-d.point), '0') + d.digits;
  if (d.point >= n) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.0f", v < 0 ? -v : v);
    return buf;
  }
  return d.digits.substr(0, static_cast<size_t>(d.point)) + "." + d.digits.substr(static_cast<size_t>(d.point));
}

template <class T>
bool reads_back(const Decimal& d, bool negative, T v) {
  std::string text = (negative ? "-0." : "0.") + d.digits + "e" + std::to_string(d.point);
  if constexpr (sizeof(T) == sizeof(float)) return std::strtof(text.c_str(), nullptr) == v;
  else return std::strtod(text.c_str(), nullptr) == v;
}

template <class T>
std::string shortest(T v) {
  const bool negative = v < 0 || (v == 0 && std::signbit(v));
  if (v == 0) return negative ? "-0" : "0";
  constexpr int kMaxDigits = sizeof(T) == sizeof(float) ? 9 : 17;  // always round-trip
  Decimal best;
  for (int precision = 1; precision <= kMaxDigits; ++precision) {
    // The nearest decimal of this length reads back unless the value sits at a power of two,
    // where the interval that reads back is narrower below than above: then a neighbour may.
    Decimal nearest = rounded(static_cast<double>(v), precision);
    if (reads_back(nearest, negative, v)) { best = nearest; break; }
    Decimal up = step(nearest, +1), down = step(nearest, -1);
    if (reads_back(up, negative, v)) { best = up; break; }
    if (reads_back(down, negative, v)) { best = down; break; }
  }
  while (best.digits.size() > 1 && best.digits.back() == '0') best.digits.pop_back();
  std::string fixed = fixed_text(best, static_cast<double>(v)), scientific = scientific_text(best);
  const std::string& text = scientific.size() < fixed.size() ? scientific : fixed;
  return negative ? "-" + text : text;
}

}  // namespace

std::string shortest_decimal(float v) { return shortest(v); }
std::string shortest_decimal(double v) { return shortest(v); }

std::string general_decimal(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

}  // namespace twinrt::cast
