// Argument reduction for sin/cos/tan: x = k (pi/2) + r with |r| <= ~pi/4.
//
// Below 10^6, Cody-Waite with pi/2 in three parts (k * part exact for k < 2^20) leaves
// r with an absolute error near 2^-100. Above, x = M 2^e (M a 53-bit integer) is multiplied
// exactly by a 224-bit window of the bits of 2/pi, skipping the leading bits that only
// contribute multiples of 4 to x * 2/pi (Payne and Hanek's method).
#include "kernels/math/trig_reduce.h"

#include <cmath>

#include "kernels/math/tables.h"

namespace twinrt::math::internal {
namespace {

constexpr int kWindowWords = 7;                    // 224 bits of 2/pi
constexpr int kProductLimbs = kWindowWords + 2;    // times a 53-bit mantissa

// Bits [pos, pos + 64) of a little-endian array of 32-bit limbs (zeros past the end).
uint64_t bits64(const uint32_t* limbs, int pos) {
  int w = pos / 32, s = pos % 32;
  auto limb = [&](int i) -> uint64_t { return i < kProductLimbs ? limbs[i] : 0; };
  uint64_t lo = limb(w) | (limb(w + 1) << 32);
  return s == 0 ? lo : (lo >> s) | (limb(w + 2) << (64 - s));
}

int reduce_large(double ax, DD* r) {
  uint64_t b = double_bits(ax);
  uint64_t mantissa = (b & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  int e = static_cast<int>(b >> 52) - 1075;  // ax = mantissa * 2^e, e >= -33 here
  // Word i of 2/pi contributes mantissa * word * 2^(e - 32(i+1)): a multiple of 4 whenever
  // e - 32(i+1) >= 2, so those words cannot change k mod 4 or r.
  int first = e >= 2 ? (e - 2) / 32 : 0;
  uint32_t window[kWindowWords];  // little-endian: window[0] is the least significant
  for (int j = 0; j < kWindowWords; ++j) window[j] = tables::kTwoOverPiWords[first + kWindowWords - 1 - j];
  uint32_t product[kProductLimbs] = {};
  const uint32_t m[2] = {static_cast<uint32_t>(mantissa), static_cast<uint32_t>(mantissa >> 32)};
  for (int a = 0; a < 2; ++a) {
    uint64_t carry = 0;
    for (int j = 0; j < kWindowWords; ++j) {
      uint64_t t = static_cast<uint64_t>(m[a]) * window[j] + product[a + j] + carry;
      product[a + j] = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    product[a + kWindowWords] = static_cast<uint32_t>(carry);
  }
  // Bit `point` of the product has weight 2^0 in x * 2/pi (191 <= point <= 257).
  int point = 32 * (first + kWindowWords) - e;
  int quadrant = static_cast<int>(bits64(product, point) & 3);
  uint64_t frac_hi = bits64(product, point - 64);
  uint64_t frac_lo = bits64(product, point - 128);
  bool negative = (frac_hi >> 63) != 0;  // fraction >= 1/2: round k up, r < 0
  if (negative) {
    quadrant = (quadrant + 1) & 3;
    frac_lo = ~frac_lo + 1;
    frac_hi = ~frac_hi + (frac_lo == 0 ? 1 : 0);
  }
  // The 128-bit fraction as a double-double, 32 bits at a time (each chunk is exact).
  DD f = {0, 0};
  const uint64_t parts[2] = {frac_hi, frac_lo};
  double weight = 0x1p-32;
  for (uint64_t part : parts) {
    f = dd_add_d(f, static_cast<double>(part >> 32) * weight);
    weight *= 0x1p-32;
    f = dd_add_d(f, static_cast<double>(part & 0xffffffffu) * weight);
    weight *= 0x1p-32;
  }
  *r = dd_mul(f, tables::kPio2);
  if (negative) *r = dd_neg(*r);
  return quadrant;
}

}  // namespace

int reduce_pio2(double ax, DD* r) {
  if (ax <= 0x1.921fb54442d18p-1) {  // pi/4
    *r = {ax, 0};
    return 0;
  }
  if (ax >= 1e6) return reduce_large(ax, r);
  double kd = std::nearbyint(ax * tables::kTwoOverPi);
  // Exact: kd * kPio2Part1 has at most 53 bits and lies within a factor 2 of ax.
  double t = ax - kd * tables::kPio2Part1;
  DD s = two_sum(t, -kd * tables::kPio2Part2);  // the product is exact too
  *r = dd_add_d(s, -kd * tables::kPio2Part3);
  return static_cast<int>(static_cast<int64_t>(kd) & 3);
}

}  // namespace twinrt::math::internal
