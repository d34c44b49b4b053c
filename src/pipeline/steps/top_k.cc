// top_k: class scores float32[1,C] (or [C]) -> the k best labels string[k] and their
// probabilities float32[k], best first; with "softmax": true the scores are logits.
// Labels come from a text file, one per line, in class order.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "pipeline/step.h"

namespace twinrt::pipeline {
namespace {

class TopK final : public Step {
 public:
  TopK(std::vector<std::string> labels, int k, bool softmax) : labels_(std::move(labels)), k_(k), softmax_(softmax) {}

  Result<ValueMap> run(const ValueMap& inputs) const override {
    auto it = inputs.find("scores");
    if (it == inputs.end() || it->second.is_list) return invalid_argument("input 'scores' must be one tensor");
    const Tensor& t = it->second.tensor();
    if (t.dtype() != DataType::kFloat || !(t.rank() == 1 || (t.rank() == 2 && t.dim(0) == 1)))
      return invalid_argument("input 'scores' must be float32[C] or float32[1,C], got " + it->second.describe());
    const size_t c = static_cast<size_t>(t.numel());
    if (c != labels_.size())
      return invalid_argument("input 'scores' has " + std::to_string(c) + " classes, the labels file " +
                              std::to_string(labels_.size()));
    std::vector<double> p(t.data<float>(), t.data<float>() + c);
    if (softmax_) {
      const double top = *std::max_element(p.begin(), p.end());
      double sum = 0;
      for (double& v : p) sum += (v = std::exp(v - top));
      for (double& v : p) v /= sum;
    }
    std::vector<size_t> order(c);
    std::iota(order.begin(), order.end(), 0);
    const size_t k = std::min(c, static_cast<size_t>(k_));
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](size_t a, size_t b) { return p[a] > p[b] || (p[a] == p[b] && a < b); });
    std::vector<std::string> labels;
    ASSIGN_OR_RETURN(Tensor probs, Tensor::create(DataType::kFloat, {static_cast<int64_t>(k)}));
    for (size_t i = 0; i < k; ++i) {
      labels.push_back(labels_[order[i]]);
      probs.data<float>()[i] = static_cast<float>(p[order[i]]);
    }
    ASSIGN_OR_RETURN(Tensor label_t, string_tensor(labels));
    return ValueMap{{"labels", PipelineValue::single(std::move(label_t))}, {"probs", PipelineValue::single(std::move(probs))}};
  }

 private:
  std::vector<std::string> labels_;
  int k_;
  bool softmax_;
};

Result<std::unique_ptr<Step>> create(const nlohmann::json& params, const StepContext& context) {
  TRY(check_param_keys(params, {"labels", "k", "softmax"}));
  ASSIGN_OR_RETURN(std::vector<std::string> labels, lines_param(params, "labels", context));
  while (!labels.empty() && labels.back().empty()) labels.pop_back();
  ASSIGN_OR_RETURN(int k, int_param(params, "k", 5, 1));
  ASSIGN_OR_RETURN(bool softmax, bool_param(params, "softmax", false));
  return std::unique_ptr<Step>(new TopK(std::move(labels), k, softmax));
}

TWINRT_REGISTER_STEP(top_k, {"top_k", "scores float32[C] -> best k labels string[k], probs float32[k] (optional softmax)",
                             {"scores"}, {"labels", "probs"}, {"labels"}, create});

}  // namespace
}  // namespace twinrt::pipeline
