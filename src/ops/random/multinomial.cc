// Multinomial: draws sample_size class indices per batch row of [batch, classes]
// unnormalized log-probabilities. See random_source.h for how the numbers are drawn.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/math/math.h"
#include "ops/random/random_source.h"

namespace twinrt {
namespace {

class MultinomialKernel final : public OpKernel {
 public:
  MultinomialKernel(RandomSource source, DataType dtype, int64_t samples)
      : source_(std::move(source)), dtype_(dtype), samples_(samples) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* s = ctx.shape(0);
    if (s && s->size() == 2) ctx.set_output(0, dtype_, ir::Shape{(*s)[0], ir::Dim::of(samples_)});
    else ctx.set_output(0, dtype_);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    if (x->rank() != 2) return invalid_argument("input must be [batch, classes], got " + shape_to_string(x->shape()));
    const int64_t batch = x->dim(0), classes = x->dim(1);
    ASSIGN_OR_RETURN(Tensor* out, ctx.output(0, dtype_, {batch, samples_}));
    std::vector<int64_t> picks(static_cast<size_t>(batch * samples_));
    TRY(dispatch<kF32 | kF64 | kF16>(x->dtype(), [&](auto* tag) -> Status {
      using T = std::remove_pointer_t<decltype(tag)>;
      const RandomDraws draws = source_.next_run();
      std::vector<double> cumulative(static_cast<size_t>(classes));
      for (int64_t b = 0; b < batch; ++b) {
        const T* row = x->data<T>() + b * classes;
        double max = -std::numeric_limits<double>::infinity();
        for (int64_t c = 0; c < classes; ++c) max = std::max(max, cast_to_double(row[c]));
        double total = 0;
        for (int64_t c = 0; c < classes; ++c) {
          total += math::exp(cast_to_double(row[c]) - max);
          cumulative[static_cast<size_t>(c)] = total;
        }
        if (!(total > 0) || !std::isfinite(total))
          return invalid_argument("row " + std::to_string(b) + " has no finite positive probability");
        for (int64_t s = 0; s < samples_; ++s) {
          const double r = draws.uniform(static_cast<uint64_t>(b * samples_ + s)) * total;
          const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), r);
          picks[static_cast<size_t>(b * samples_ + s)] = std::min<int64_t>(it - cumulative.begin(), classes - 1);
        }
      }
      return Status::ok();
    }));
    for (size_t i = 0; i < picks.size(); ++i) {
      if (dtype_ == DataType::kInt64) out->data<int64_t>()[i] = picks[i];
      else out->data<int32_t>()[i] = static_cast<int32_t>(picks[i]);
    }
    return Status::ok();
  }

 private:
  RandomSource source_;
  DataType dtype_;
  int64_t samples_;
};

Result<std::unique_ptr<OpKernel>> create_multinomial(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0)) return init.error("takes exactly one input");
  ASSIGN_OR_RETURN(RandomSource source, RandomSource::from_node(init));
  ASSIGN_OR_RETURN(DataType dtype, (dtype_attribute<kI32 | kI64>(init, DataType::kInt32)));
  ASSIGN_OR_RETURN(int64_t samples, init.attr_int("sample_size", 1));
  if (samples < 1) return init.error("sample_size must be positive, got " + std::to_string(samples));
  return make_kernel<MultinomialKernel>(std::move(source), dtype, samples);
}

}  // namespace

TWINRT_REGISTER_OP("Multinomial", 7, create_multinomial);

}  // namespace twinrt
