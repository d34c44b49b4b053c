// Einsum: a sum of products over the labels that the output does not keep. Each output
// element walks the summed labels in a fixed (label id) order, so repeated labels
// (diagonals), broadcast ellipses and any number of operands share one code path.
#include <algorithm>
#include <memory>
#include <type_traits>

#include "ops/nn/compute_type.h"
#include "ops/nn/einsum_equation.h"
#include "ops/op.h"
#include "runtime/thread_pool.h"

namespace twinrt {
namespace {

// Sizes of every label and each input's element stride per label (0 where the label is
// absent or broadcast).
struct EinsumLayout {
  std::vector<int64_t> size;                  // per label; -1 when unused
  std::vector<std::vector<int64_t>> strides;  // [input][label]
};

Result<EinsumLayout> layout(const nn::EinsumSpec& spec, const std::vector<const Tensor*>& inputs) {
  EinsumLayout l;
  l.size.assign(static_cast<size_t>(spec.num_labels), -1);
  for (size_t i = 0; i < inputs.size(); ++i)
    for (size_t a = 0; a < spec.inputs[i].size(); ++a) {
      int64_t& s = l.size[static_cast<size_t>(spec.inputs[i][a])];
      const int64_t d = inputs[i]->dim(static_cast<int64_t>(a));
      const bool ellipsis = spec.inputs[i][a] >= 52;
      if (s < 0 || (ellipsis && s == 1)) s = d;
      else if (d != s && !(ellipsis && d == 1))
        return invalid_argument("Einsum label size mismatch: input " + std::to_string(i) + " axis " + std::to_string(a) +
                                " has size " + std::to_string(d) + ", elsewhere " + std::to_string(s));
    }
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<int64_t> st(static_cast<size_t>(spec.num_labels), 0);
    int64_t stride = 1;
    for (size_t a = spec.inputs[i].size(); a-- > 0;) {
      const int64_t d = inputs[i]->dim(static_cast<int64_t>(a));
      if (d != 1) st[static_cast<size_t>(spec.inputs[i][a])] += stride;
      stride *= d;
    }
    l.strides.push_back(std::move(st));
  }
  return l;
}

// Unsigned wrapping arithmetic for integers; the accumulator type otherwise.
template <class C, bool kReference>
using einsum_acc_t = std::conditional_t<std::is_integral_v<C>, uint64_t, std::conditional_t<kReference, double, C>>;

template <class Acc, class C>
Acc widen(C v) {
  if constexpr (std::is_integral_v<C>) return static_cast<Acc>(static_cast<int64_t>(v));
  else return static_cast<Acc>(v);
}

class EinsumKernel final : public OpKernel {
 public:
  EinsumKernel(std::string equation, Mode mode) : equation_(std::move(equation)), mode_(mode) {}

  Status infer(InferContext& ctx) const override {
    std::vector<int64_t> ranks;
    std::vector<const ir::Shape*> shapes;
    for (size_t i = 0; i < ctx.node.inputs.size(); ++i) {
      shapes.push_back(ctx.shape(i));
      if (!shapes.back()) {
        ctx.set_output(0, ctx.dtype(0));
        return Status::ok();
      }
      ranks.push_back(static_cast<int64_t>(shapes.back()->size()));
    }
    auto spec = nn::parse_einsum(equation_, ranks);
    if (!spec) return spec.status();
    ir::Shape out;
    for (int label : spec->output) {
      ir::Dim dim;  // unknown unless some input fixes it (a broadcast 1 does not)
      for (size_t i = 0; i < shapes.size(); ++i)
        for (size_t a = 0; a < spec->inputs[i].size(); ++a)
          if (spec->inputs[i][a] == label && !((*shapes[i])[a].known() && (*shapes[i])[a].value == 1 && label >= 52))
            dim = (*shapes[i])[a];
      out.push_back(dim);
    }
    ctx.set_output(0, ctx.dtype(0), out);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    std::vector<const Tensor*> inputs;
    std::vector<int64_t> ranks;
    for (size_t i = 0; i < ctx.num_inputs(); ++i) {
      ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(i));
      if (!inputs.empty() && t->dtype() != inputs.front()->dtype())
        return invalid_argument(std::string("Einsum inputs must share one type, got ") + dtype_name(inputs.front()->dtype()) +
                                " and " + dtype_name(t->dtype()));
      inputs.push_back(t);
      ranks.push_back(t->rank());
    }
    ASSIGN_OR_RETURN(nn::EinsumSpec spec, nn::parse_einsum(equation_, ranks));
    ASSIGN_OR_RETURN(EinsumLayout l, layout(spec, inputs));
    std::vector<int64_t> out_shape;
    for (int label : spec.output) out_shape.push_back(l.size[static_cast<size_t>(label)]);
    ASSIGN_OR_RETURN(Tensor * y, ctx.output(0, inputs[0]->dtype(), out_shape));
    return dispatch<kFloats | kI32 | kI64 | kU32 | kU64>(inputs[0]->dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      using C = nn::compute_t<T>;
      std::vector<std::unique_ptr<nn::ComputeInput<T>>> views;
      std::vector<const C*> data;
      for (const Tensor* t : inputs) {
        views.push_back(std::make_unique<nn::ComputeInput<T>>(*t));
        data.push_back(views.back()->data());
      }
      nn::ComputeOutput<T> yv(*y);
      if (mode_ == Mode::kReference) contract<einsum_acc_t<C, true>>(ctx.pool(), spec, l, data, yv.data(), y->numel());
      else contract<einsum_acc_t<C, false>>(ctx.pool(), spec, l, data, yv.data(), y->numel());
      yv.commit();
      return Status::ok();
    });
  }

 private:
  template <class Acc, class C>
  static void contract(ThreadPool& pool, const nn::EinsumSpec& spec, const EinsumLayout& l,
                       const std::vector<const C*>& data, C* out, int64_t out_numel) {
    std::vector<int> summed;
    for (int label = 0; label < spec.num_labels; ++label)
      if (l.size[static_cast<size_t>(label)] >= 0 &&
          std::find(spec.output.begin(), spec.output.end(), label) == spec.output.end())
        summed.push_back(label);
    const size_t n_in = data.size();
    pool.parallel_for(out_numel, 256, [&](int64_t begin, int64_t end) {
      std::vector<int64_t> base(n_in), off(n_in), idx(summed.size());
      for (int64_t o = begin; o < end; ++o) {
        // Offsets of this output element's kept labels in every input.
        std::fill(base.begin(), base.end(), 0);
        int64_t rest = o;
        for (size_t a = spec.output.size(); a-- > 0;) {
          const size_t label = static_cast<size_t>(spec.output[a]);
          const int64_t i = rest % l.size[label];
          rest /= l.size[label];
          for (size_t k = 0; k < n_in; ++k) base[k] += i * l.strides[k][label];
        }
        Acc acc = 0;
        off = base;
        std::fill(idx.begin(), idx.end(), 0);
        bool empty = false;
        for (int label : summed) empty = empty || l.size[static_cast<size_t>(label)] == 0;
        while (!empty) {
          Acc prod = widen<Acc>(data[0][off[0]]);
          for (size_t k = 1; k < n_in; ++k) prod *= widen<Acc>(data[k][off[k]]);
          acc += prod;
          size_t s = summed.size();
          while (s-- > 0) {  // odometer over the summed labels, last one fastest
            const size_t label = static_cast<size_t>(summed[s]);
            for (size_t k = 0; k < n_in; ++k) off[k] += l.strides[k][label];
            if (++idx[s] < l.size[label]) break;
            for (size_t k = 0; k < n_in; ++k) off[k] -= l.strides[k][label] * idx[s];
            idx[s] = 0;
          }
          if (s == static_cast<size_t>(-1)) break;
        }
        out[o] = static_cast<C>(acc);
      }
    });
  }

  std::string equation_;
  Mode mode_;
};

Result<std::unique_ptr<OpKernel>> create_einsum(const KernelInit& init) {
  if (init.num_inputs() < 1) return init.error("Einsum needs at least one input");
  for (size_t i = 0; i < init.num_inputs(); ++i)
    if (!init.has_input(i)) return init.error("Einsum input " + std::to_string(i) + " is missing");
  if (!init.has_attr("equation")) return init.error("attribute 'equation' is required");
  ASSIGN_OR_RETURN(std::string equation, init.attr_string("equation", ""));
  return make_kernel<EinsumKernel>(std::move(equation), init.mode);
}

}  // namespace

TWINRT_REGISTER_OP("Einsum", 12, create_einsum);

}  // namespace twinrt
