// Shared pieces of the signal ops (DFT, STFT, windows, MelWeightMatrix): the naive DFT
// with double accumulation, exact-argument cosines, and typed output of double values.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ops/op.h"

namespace twinrt::signal {

// cos(2 pi m / n) and sin(2 pi m / n) for m in [0, n): m is reduced first, so the angle
// stays below 2 pi whatever the caller's index arithmetic.
double cos_two_pi_fraction(int64_t m, int64_t n);
double sin_two_pi_fraction(int64_t m, int64_t n);

// e^(-+2 pi i m / n) for m in [0, n): the DFT's twiddle factors.
class Twiddles {
 public:
  Twiddles(int64_t n, bool inverse);
  int64_t size() const { return static_cast<int64_t>(cos_.size()); }
  double re(int64_t m) const { return cos_[static_cast<size_t>(m)]; }
  double im(int64_t m) const { return sin_[static_cast<size_t>(m)]; }

 private:
  std::vector<double> cos_, sin_;
};

// X[k] = sum_j x[j] w^(jk) for k < bins, summed in double in index order. `in` holds
// `available` complex values (re, im interleaved), implicitly zero-padded to the
// transform length; the inverse transform is scaled by 1/n. `out` gets bins pairs.
void dft(const double* in, int64_t available, const Twiddles& w, int64_t bins, bool inverse, double* out);

// output_datatype of the window ops and MelWeightMatrix: a numeric type (default float).
Result<DataType> parse_output_datatype(const KernelInit& init);

// Allocates output 0 as `dtype` with `shape` and sets element i to value(i) rounded once.
// (The output is allocated first, so an absurd size is an error, not a failed vector.)
Status write_values(RunContext& ctx, DataType dtype, std::vector<int64_t> shape,
                    const std::function<double(int64_t)>& value);

// Input i as one integer when it is a constant one-element int32/int64 tensor.
std::optional<int64_t> constant_int_scalar(const InferContext& ctx, size_t i);

// Input i as one integer, or an error naming it.
Result<int64_t> int_scalar_input(const RunContext& ctx, size_t i, const char* name);

}  // namespace twinrt::signal
