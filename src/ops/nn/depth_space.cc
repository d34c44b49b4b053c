// DepthToSpace and SpaceToDepth: move blocksize x blocksize pixel blocks between the
// channel axis and the two spatial axes (pure data movement, any element type).
#include "ops/common/dispatch.h"
#include "ops/op.h"

namespace twinrt {
namespace {

enum class Direction { kDepthToSpace, kSpaceToDepth };

class DepthSpaceKernel final : public OpKernel {
 public:
  DepthSpaceKernel(Direction dir, int64_t block, bool crd) : dir_(dir), block_(block), crd_(crd) {}

  Status infer(InferContext& ctx) const override {
    auto xs = ctx.static_shape(0);
    if (xs) {
      auto ys = output_shape(*xs);
      if (ys) {
        ctx.set_output(0, ctx.dtype(0), *ys);
        return Status::ok();
      }
    }
    ctx.set_output(0, ctx.dtype(0));
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    ASSIGN_OR_RETURN(std::vector<int64_t> ys, output_shape(x->shape()));
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, x->dtype(), ys));
    return dispatch<kAllTypes>(x->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      // Walk the depth-side tensor [N, C, H, W] and the space-side [N, C', H*b, W*b].
      const std::vector<int64_t>& depth = dir_ == Direction::kDepthToSpace ? x->shape() : ys;
      const int64_t n = depth[0], c = depth[1], h = depth[2], w = depth[3], b = block_;
      const int64_t cs = c / (b * b), hs = h * b, ws = w * b;
      const T* in = x->template data<T>();
      T* out = y->template data<T>();
      for (int64_t in_n = 0; in_n < n; ++in_n)
        for (int64_t ch = 0; ch < c; ++ch) {
          // Channel ch of the depth side holds block offset (i, j) of space channel sc.
          const int64_t sc = crd_ ? ch / (b * b) : ch % cs;
          const int64_t blk = crd_ ? ch % (b * b) : ch / cs;
          const int64_t i = blk / b, j = blk % b;
          for (int64_t r = 0; r < h; ++r)
            for (int64_t q = 0; q < w; ++q) {
              const int64_t d = ((in_n * c + ch) * h + r) * w + q;
              const int64_t s = ((in_n * cs + sc) * hs + r * b + i) * ws + q * b + j;
              if (dir_ == Direction::kDepthToSpace) out[s] = in[d];
              else out[d] = in[s];
            }
        }
      return Status::ok();
    });
  }

 private:
  Result<std::vector<int64_t>> output_shape(const std::vector<int64_t>& xs) const {
    if (xs.size() != 4) return invalid_argument("expects a 4-D input [N, C, H, W], got " + shape_to_string(xs));
    const int64_t b = block_;
    if (dir_ == Direction::kDepthToSpace) {
      if (xs[1] % b != 0 || (xs[1] / b) % b != 0)  // divisibility by b^2 without overflow
        return invalid_argument("channels " + std::to_string(xs[1]) + " are not divisible by blocksize^2 (blocksize " +
                                std::to_string(b) + ")");
      return std::vector<int64_t>{xs[0], xs[1] / b / b, xs[2] * b, xs[3] * b};
    }
    if (xs[2] % b != 0 || xs[3] % b != 0)
      return invalid_argument("spatial size " + shape_to_string({xs[2], xs[3]}) + " is not divisible by blocksize " +
                              std::to_string(b));
    return std::vector<int64_t>{xs[0], xs[1] * b * b, xs[2] / b, xs[3] / b};
  }

  Direction dir_;
  int64_t block_;
  bool crd_;
};

template <Direction kDir>
Result<std::unique_ptr<OpKernel>> create_depth_space(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0)) return init.error("takes one input");
  if (!init.has_attr("blocksize")) return init.error("attribute 'blocksize' is required");
  ASSIGN_OR_RETURN(int64_t block, init.attr_int("blocksize", 1));
  if (block < 1) return init.error("blocksize must be >= 1, got " + std::to_string(block));
  bool crd = false;
  if (kDir == Direction::kDepthToSpace) {
    ASSIGN_OR_RETURN(std::string mode, init.attr_string("mode", "DCR"));
    if (mode != "DCR" && mode != "CRD") return init.error("mode must be DCR or CRD, got '" + mode + "'");
    crd = mode == "CRD";
  }
  return make_kernel<DepthSpaceKernel>(kDir, block, crd);
}

}  // namespace

TWINRT_REGISTER_OP("DepthToSpace", 1, create_depth_space<Direction::kDepthToSpace>);
TWINRT_REGISTER_OP("SpaceToDepth", 1, create_depth_space<Direction::kSpaceToDepth>);

}  // namespace twinrt
