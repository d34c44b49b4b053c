// MelWeightMatrix (opset 17): triangular filters that map the dft_length/2 + 1 bins of a
// onesided spectrum onto num_mel_bins mel bands, mel(f) = 2595 log10(1 + f/700).
// num_mel_bins + 2 points equally spaced in mel from lower_edge_hertz (spaced by
// (mel(upper) - mel(lower)) / (num_mel_bins + 2), as the ONNX reference does) are mapped
// to spectrum bins floor((dft_length + 1) f / sample_rate); band i rises linearly from
// point i to a peak of 1 at point i+1 and falls to point i+2.
#include <cmath>
#include <string>
#include <vector>

#include "kernels/math/math.h"
#include "ops/signal/signal_util.h"
#include "ops/tensor/tensor_args.h"

namespace twinrt {
namespace {

double hertz_to_mel(double hz) { return 2595 * (math::log(1 + hz / 700) / math::log(10.0)); }
double mel_to_hertz(double mel) { return 700 * (math::pow(10.0, mel / 2595) - 1); }

Result<double> float_scalar_input(const RunContext& ctx, size_t i, const char* name) {
  ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(i));
  const std::string what = std::string("input ") + name;
  if (t->numel() != 1 || !dtype_is_float(t->dtype()))
    return invalid_argument(what + " must be one float value, got " + dtype_name(t->dtype()) + " of shape " +
                            shape_to_string(t->shape()));
  ASSIGN_OR_RETURN(std::vector<double> v, tensor_ops::read_doubles(*t, what));
  return v[0];
}

class MelWeightMatrixKernel final : public OpKernel {
 public:
  explicit MelWeightMatrixKernel(DataType out) : out_(out) {}

  Status infer(InferContext& ctx) const override {
    auto mel_bins = signal::constant_int_scalar(ctx, 0);
    auto dft_length = signal::constant_int_scalar(ctx, 1);
    ctx.set_output(0, out_,
                   ir::Shape{dft_length && *dft_length > 0 ? ir::Dim::of(*dft_length / 2 + 1) : ir::Dim{},
                             mel_bins && *mel_bins >= 0 ? ir::Dim::of(*mel_bins) : ir::Dim{}});
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(int64_t bands, signal::int_scalar_input(ctx, 0, "num_mel_bins"));
    ASSIGN_OR_RETURN(int64_t dft_length, signal::int_scalar_input(ctx, 1, "dft_length"));
    ASSIGN_OR_RETURN(int64_t sample_rate, signal::int_scalar_input(ctx, 2, "sample_rate"));
    ASSIGN_OR_RETURN(double lower, float_scalar_input(ctx, 3, "lower_edge_hertz"));
    ASSIGN_OR_RETURN(double upper, float_scalar_input(ctx, 4, "upper_edge_hertz"));
    if (bands < 0 || bands > (int64_t{1} << 32) || dft_length < 1 || sample_rate < 1)
      return invalid_argument("num_mel_bins must be in [0, 2^32] and dft_length, sample_rate >= 1; got " +
                              std::to_string(bands) + ", " + std::to_string(dft_length) + ", " +
                              std::to_string(sample_rate));
    if (!(lower >= 0 && lower <= upper))
      return invalid_argument("expected 0 <= lower_edge_hertz <= upper_edge_hertz, got " + std::to_string(lower) +
                              " and " + std::to_string(upper));
    const int64_t spectrum_bins = dft_length / 2 + 1;
    // Spectrum bin of each of the bands + 2 points.
    const double low_mel = hertz_to_mel(lower);
    const double mel_step = (hertz_to_mel(upper) - low_mel) / static_cast<double>(bands + 2);
    std::vector<int64_t> point(static_cast<size_t>(bands + 2));
    for (int64_t p = 0; p < bands + 2; ++p) {
      const double hz = mel_to_hertz(static_cast<double>(p) * mel_step + low_mel);
      const double bin = std::floor(static_cast<double>(dft_length + 1) * hz / static_cast<double>(sample_rate));
      if (!(bin >= 0 && bin < static_cast<double>(spectrum_bins)))
        return invalid_argument("mel point " + std::to_string(p) + " falls outside the " +
                                std::to_string(spectrum_bins) +
                                " spectrum bins (upper_edge_hertz above sample_rate / 2?)");
      point[static_cast<size_t>(p)] = static_cast<int64_t>(bin);
    }
    // Band i rises from 0 at point i to 1 at point i+1 and falls back to 0 at point i+2
    // (a band whose first two points coincide starts at 1).
    return signal::write_values(ctx, out_, {spectrum_bins, bands}, [&](int64_t index) {
      const int64_t bin = index / bands, band = index % bands;
      const int64_t left = point[static_cast<size_t>(band)], centre = point[static_cast<size_t>(band + 1)],
                    right = point[static_cast<size_t>(band + 2)];
      if (bin == centre) return 1.0;
      if (bin >= left && bin < centre) return static_cast<double>(bin - left) / static_cast<double>(centre - left);
      if (bin > centre && bin < right) return static_cast<double>(right - bin) / static_cast<double>(right - centre);
      return 0.0;
    });
  }

 private:
  DataType out_;
};

Result<std::unique_ptr<OpKernel>> create_mel_weight_matrix(const KernelInit& init) {
  if (init.num_inputs() != 5 || init.num_outputs() != 1)
    return init.error("expects 5 inputs and 1 output, got " + std::to_string(init.num_inputs()) + " and " +
                      std::to_string(init.num_outputs()));
  ASSIGN_OR_RETURN(DataType out, signal::parse_output_datatype(init));
  return make_kernel<MelWeightMatrixKernel>(out);
}

}  // namespace

TWINRT_REGISTER_OP("MelWeightMatrix", 17, create_mel_weight_matrix);

}  // namespace twinrt
