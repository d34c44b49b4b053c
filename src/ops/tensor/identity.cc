// Identity: the output is the input (a tensor, sequence or optional), shared, not copied.
#include "ops/op.h"

namespace twinrt {
namespace {

class IdentityKernel final : public OpKernel {
 public:
  Status infer(InferContext& ctx) const override {
    if (!ctx.input_types.empty()) ctx.output_types[0] = ctx.input_types[0];
    return Status::ok();
  }
  Status run(RunContext& ctx) const override {
    const Value* v = ctx.input_value(0);
    if (!v) return invalid_argument("Identity needs an input");
    ctx.set_output(0, *v);
    return Status::ok();
  }
};

Result<std::unique_ptr<OpKernel>> create_identity(const KernelInit& init) {
  if (init.num_inputs() != 1 || init.num_outputs() != 1)
    return init.error("Identity takes one input and one output");
  return make_kernel<IdentityKernel>();
}

}  // namespace

TWINRT_REGISTER_OP("Identity", 1, create_identity);

}  // namespace twinrt
