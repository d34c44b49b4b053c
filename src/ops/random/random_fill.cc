// RandomUniform, RandomNormal (shape from the `shape` attribute) and RandomUniformLike,
// RandomNormalLike (shape, and by default type, from the input). See random_source.h
// for how the numbers are drawn.
#include "ops/random/random_source.h"

namespace twinrt {
namespace {

struct Distribution {
  bool normal = false;
  double a = 0, b = 1;  // uniform: low, high; normal: mean, scale

  double draw(const RandomDraws& d, uint64_t i) const {
    return normal ? a + b * d.standard_normal(i) : a + (b - a) * d.uniform(i);
  }
};

class RandomFillKernel final : public OpKernel {
 public:
  RandomFillKernel(RandomSource source, Distribution dist, DataType dtype,
                   std::optional<std::vector<int64_t>> shape)
      : source_(std::move(source)), dist_(dist), dtype_(dtype), shape_(std::move(shape)) {}

  Status infer(InferContext& ctx) const override {
    const DataType dtype = dtype_ != DataType::kUndefined ? dtype_ : ctx.dtype(0);
    if (shape_) ctx.set_output(0, dtype, *shape_);
    else if (const ir::Shape* s = ctx.shape(0)) ctx.set_output(0, dtype, *s);
    else ctx.set_output(0, dtype);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    std::vector<int64_t> shape;
    DataType dtype = dtype_;
    if (shape_) {
      shape = *shape_;
    } else {
      ASSIGN_OR_RETURN(const Tensor* like, ctx.tensor_input(0));
      shape = like->shape();
      if (dtype == DataType::kUndefined) dtype = like->dtype();
    }
    return dispatch<kF32 | kF64 | kF16>(dtype, [&](auto* tag) -> Status {
      using T = std::remove_pointer_t<decltype(tag)>;
      ASSIGN_OR_RETURN(Tensor* out, ctx.output(0, dtype, shape));
      const RandomDraws draws = source_.next_run();
      T* y = out->data<T>();
      for (int64_t i = 0; i < out->numel(); ++i) y[i] = cast_from_double<T>(dist_.draw(draws, static_cast<uint64_t>(i)));
      return Status::ok();
    });
  }

 private:
  RandomSource source_;
  Distribution dist_;
  DataType dtype_;  // undefined: the input's type
  std::optional<std::vector<int64_t>> shape_;  // absent: the input's shape
};

template <bool Normal, bool Like>
Result<std::unique_ptr<OpKernel>> create_random_fill(const KernelInit& init) {
  if (init.num_inputs() != (Like ? 1u : 0u) || (Like && !init.has_input(0)))
    return init.error(Like ? "takes exactly one input" : "takes no inputs");
  ASSIGN_OR_RETURN(RandomSource source, RandomSource::from_node(init));
  Distribution dist;
  dist.normal = Normal;
  ASSIGN_OR_RETURN(float a, init.attr_float(Normal ? "mean" : "low", 0.0f));
  ASSIGN_OR_RETURN(float b, init.attr_float(Normal ? "scale" : "high", 1.0f));
  dist.a = a;
  dist.b = b;
  const DataType fallback = Like ? DataType::kUndefined : DataType::kFloat;
  ASSIGN_OR_RETURN(DataType dtype, dtype_attribute<kF32 | kF64 | kF16>(init, fallback));
  std::optional<std::vector<int64_t>> shape;
  if (!Like) {
    if (!init.has_attr("shape")) return init.error("attribute 'shape' is required");
    ASSIGN_OR_RETURN(shape, init.attr_ints("shape"));
    if (shape_numel(*shape) < 0) return init.error("attribute 'shape' " + shape_to_string(*shape) + " is not a valid shape");
  }
  return make_kernel<RandomFillKernel>(std::move(source), dist, dtype, std::move(shape));
}

}  // namespace

TWINRT_REGISTER_OP("RandomUniform", 1, (create_random_fill<false, false>));
TWINRT_REGISTER_OP("RandomNormal", 1, (create_random_fill<true, false>));
TWINRT_REGISTER_OP("RandomUniformLike", 1, (create_random_fill<false, true>));
TWINRT_REGISTER_OP("RandomNormalLike", 1, (create_random_fill<true, true>));

}  // namespace twinrt
