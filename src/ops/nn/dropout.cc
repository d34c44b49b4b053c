// Dropout: the identity (and an all-true mask) at inference. In training mode each
// element is kept with probability 1 - ratio and scaled by 1 / (1 - ratio); the draws
// come from a splitmix64 stream seeded by `seed`, so a run is reproducible.
#include "ops/nn/compute_type.h"
#include "ops/op.h"

namespace twinrt {
namespace {

constexpr uint64_t kDefaultSeed = 0x74776e72745f6470ull;  // used when `seed` is absent

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  // Uniform in [0, 1) with 24 random bits: exactly representable as float.
  float next_unit() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return static_cast<float>(z >> 40) * (1.0f / 16777216.0f);
  }

 private:
  uint64_t state_;
};

struct DropoutAttrs {
  float ratio = 0.5f;            // opset < 12: attribute; later: optional input 1
  bool legacy_training = false;  // opset < 7 with is_test = 0
  bool mask_is_bool = true;      // opset >= 10
  uint64_t seed = kDefaultSeed;
};

class DropoutKernel final : public OpKernel {
 public:
  DropoutKernel(DropoutAttrs attrs, int64_t opset) : attrs_(attrs), opset_(opset) {}

  Status infer(InferContext& ctx) const override {
    std::optional<ir::Shape> shape;
    if (ctx.shape(0)) shape = *ctx.shape(0);
    ctx.set_output(0, ctx.dtype(0), shape);
    if (ctx.output_types.size() > 1) ctx.set_output(1, attrs_.mask_is_bool ? DataType::kBool : ctx.dtype(0), shape);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    float ratio = attrs_.ratio;
    bool training = attrs_.legacy_training;
    if (opset_ >= 12) {
      if (ctx.has_input(1)) {
        ASSIGN_OR_RETURN(const Tensor* r, ctx.tensor_input(1));
        ASSIGN_OR_RETURN(std::vector<double> v, nn::read_doubles(*r, "Dropout ratio"));
        if (v.size() != 1) return invalid_argument("Dropout ratio must be a scalar, got shape " + shape_to_string(r->shape()));
        ratio = static_cast<float>(v[0]);
      }
      if (ctx.has_input(2)) {
        ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(2));
        if (t->dtype() != DataType::kBool || t->numel() != 1)
          return invalid_argument("Dropout training_mode must be a bool scalar, got " + std::string(dtype_name(t->dtype())) +
                                  shape_to_string(t->shape()));
        training = t->data<bool>()[0];
      }
    }
    if (!(ratio >= 0.0f && ratio < 1.0f)) return invalid_argument("Dropout ratio must be in [0, 1), got " + std::to_string(ratio));
    const bool wants_mask = ctx.num_outputs() > 1 && ctx.output_requested(1);
    if (!training || ratio == 0.0f) {
      ctx.set_output(0, *ctx.input_value(0));
      if (wants_mask) TRY(fill_mask(ctx, *x, nullptr));
      return Status::ok();
    }
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), x->shape()));
    std::vector<bool> keep(static_cast<size_t>(x->numel()));
    SplitMix64 rng(attrs_.seed);
    for (size_t i = 0; i < keep.size(); ++i) keep[i] = rng.next_unit() >= ratio;
    TRY(dispatch<kFloats>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      const T* in = x->data<T>();
      T* out = y->data<T>();
      const nn::compute_t<T> scale = static_cast<nn::compute_t<T>>(1.0 / (1.0 - static_cast<double>(ratio)));
      for (size_t i = 0; i < keep.size(); ++i)
        out[i] = keep[i] ? nn::from_compute<T>(nn::to_compute(in[i]) * scale) : nn::from_compute<T>(0);
      return Status::ok();
    }));
    if (wants_mask) TRY(fill_mask(ctx, *x, &keep));
    return Status::ok();
  }

 private:
  // The mask output: bool (opset >= 10) or X's type holding 1 and 0; all kept when `keep` is null.
  Status fill_mask(RunContext& ctx, const Tensor& x, const std::vector<bool>* keep) const {
    const DataType type = attrs_.mask_is_bool ? DataType::kBool : x.dtype();
    ASSIGN_OR_RETURN(Tensor * mask, ctx.output(1, type, x.shape()));
    return dispatch<kFloats | kBoolT>(type, [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      T* m = mask->data<T>();
      for (int64_t i = 0; i < mask->numel(); ++i) {
        const bool kept = !keep || (*keep)[static_cast<size_t>(i)];
        if constexpr (std::is_same_v<T, bool>) m[i] = kept;
        else m[i] = nn::from_compute<T>(kept ? 1.0f : 0.0f);
      }
      return Status::ok();
    });
  }

  DropoutAttrs attrs_;
  int64_t opset_;
};

Result<std::unique_ptr<OpKernel>> create_dropout(const KernelInit& init) {
  const size_t max_inputs = init.opset >= 12 ? 3 : 1;
  if (init.num_inputs() < 1 || init.num_inputs() > max_inputs || !init.has_input(0) || init.num_outputs() > 2)
    return init.error("Dropout takes " + std::string(max_inputs == 3 ? "data, optional ratio and training_mode" : "one input") +
                      " and at most 2 outputs");
  DropoutAttrs a;
  a.mask_is_bool = init.opset >= 10;
  if (init.opset < 12) {
    ASSIGN_OR_RETURN(a.ratio, init.attr_float("ratio", 0.5f));
  }
  if (init.opset < 7) {
    ASSIGN_OR_RETURN(int64_t is_test, init.attr_int("is_test", 0));
    a.legacy_training = is_test == 0;
  }
  if (init.has_attr("seed")) {
    ASSIGN_OR_RETURN(int64_t seed, init.attr_int("seed", 0));
    a.seed = static_cast<uint64_t>(seed);
  }
  return make_kernel<DropoutKernel>(a, init.opset);
}

}  // namespace

TWINRT_REGISTER_OP("Dropout", 1, create_dropout);

}  // namespace twinrt
