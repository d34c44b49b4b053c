#include "ops/loss/nll.h"

#include "ops/binary/numeric.h"
#include "ops/reduce/axes.h"

namespace twinrt {
namespace {

constexpr unsigned kLossTypes = kFloats;
constexpr unsigned kTargetTypes = kI32 | kI64;

template <class T, class I, class Acc>
Status nll_typed(const Tensor& log_prob, const Tensor& target, const Tensor* weight, const LossAttrs& attrs,
                 Tensor& out) {
  const AxisLayout l = axis_layout(log_prob.shape(), 1);  // outer = N, n = C, inner = D
  const int64_t classes = l.n, inner = l.inner;
  const T* lp = log_prob.data<T>();
  const I* tg = target.data<I>();
  const T* w = weight ? weight->data<T>() : nullptr;
  T* per_element = attrs.reduction == LossReduction::kNone ? out.data<T>() : nullptr;
  Acc loss_sum = 0, weight_sum = 0;
  for (int64_t n = 0; n < l.outer; ++n)
    for (int64_t d = 0; d < inner; ++d) {
      const int64_t j = n * inner + d;
      const int64_t c = static_cast<int64_t>(tg[j]);
      if (attrs.ignore_index && c == *attrs.ignore_index) continue;  // loss 0, weight 0
      if (c < 0 || c >= classes)
        return invalid_argument("target value " + std::to_string(c) + " at flat index " + std::to_string(j) +
                                " is outside [0, " + std::to_string(classes) + ")");
      const Acc wc = w ? static_cast<Acc>(load(w[c])) : Acc(1);
      const Acc loss = -static_cast<Acc>(load(lp[(n * classes + c) * inner + d])) * wc;
      if (per_element) per_element[j] = store<T>(static_cast<compute_t<T>>(loss));
      loss_sum += loss;
      weight_sum += wc;
    }
  if (!per_element) {
    const Acc r = attrs.reduction == LossReduction::kMean ? loss_sum / weight_sum : loss_sum;
    out.data<T>()[0] = store<T>(static_cast<compute_t<T>>(r));
  }
  return Status::ok();
}

}  // namespace

Result<LossAttrs> parse_loss_attrs(const KernelInit& init) {
  LossAttrs a;
  ASSIGN_OR_RETURN(std::string reduction, init.attr_string("reduction", "mean"));
  if (reduction == "none") a.reduction = LossReduction::kNone;
  else if (reduction == "sum") a.reduction = LossReduction::kSum;
  else if (reduction == "mean") a.reduction = LossReduction::kMean;
  else return init.error("attribute reduction must be \"none\", \"sum\" or \"mean\", got \"" + reduction + "\"");
  if (init.has_attr("ignore_index")) {
    ASSIGN_OR_RETURN(int64_t ii, init.attr_int("ignore_index", 0));
    a.ignore_index = ii;
  }
  return a;
}

void infer_loss_output(InferContext& ctx, const LossAttrs& attrs) {
  const DataType t = ctx.dtype(0);
  if (t == DataType::kUndefined) return;
  if (attrs.reduction != LossReduction::kNone) ctx.set_output(0, t, ir::Shape{});
  else ctx.set_output(0, t, ctx.shape(1) ? std::optional<ir::Shape>(*ctx.shape(1)) : std::nullopt);
}

Status check_loss_inputs(const Tensor& input, const Tensor& target, const Tensor* weight,
                         const char* const names[3]) {
  const std::string in = names[0], tg = names[1], wt = names[2];
  TRY(check_type_in<kLossTypes>(input.dtype()));
  if (Status st = check_type_in<kTargetTypes>(target.dtype()); !st.is_ok())
    return invalid_argument(tg + " must be int32 or int64, got " + dtype_name(target.dtype()));
  const auto& s = input.shape();
  if (s.size() < 2) return invalid_argument(in + " must have shape (N, C, d1..dk), got " + shape_to_string(s));
  std::vector<int64_t> want = {s[0]};
  want.insert(want.end(), s.begin() + 2, s.end());
  if (target.shape() != want)
    return invalid_argument(tg + " has shape " + shape_to_string(target.shape()) + ", expected " +
                            shape_to_string(want) + " for " + in + " of shape " + shape_to_string(s));
  if (weight) {
    if (weight->dtype() != input.dtype())
      return invalid_argument(wt + " is " + dtype_name(weight->dtype()) + ", expected " + dtype_name(input.dtype()));
    if (weight->shape() != std::vector<int64_t>{s[1]})
      return invalid_argument(wt + " has shape " + shape_to_string(weight->shape()) + ", expected [" +
                              std::to_string(s[1]) + "]");
  }
  return Status::ok();
}

Status nll_loss(RunContext& ctx, const Tensor& log_prob, const Tensor& target, const Tensor* weight,
                const LossAttrs& attrs) {
  const std::vector<int64_t> out_shape =
      attrs.reduction == LossReduction::kNone ? target.shape() : std::vector<int64_t>{};
  ASSIGN_OR_RETURN(Tensor * out, ctx.output(0, log_prob.dtype(), out_shape));
  const bool reference = ctx.mode() == Mode::kReference;
  return dispatch<kLossTypes>(log_prob.dtype(), [&](auto* t_tag) {
    using T = std::remove_pointer_t<decltype(t_tag)>;
    return dispatch<kTargetTypes>(target.dtype(), [&](auto* i_tag) {
      using I = std::remove_pointer_t<decltype(i_tag)>;
      if (reference) return nll_typed<T, I, double>(log_prob, target, weight, attrs, *out);
      return nll_typed<T, I, accum_t<T, false>>(log_prob, target, weight, attrs, *out);
    });
  });
}

}  // namespace twinrt
