// ctc_decode: a recognizer's per-step class probabilities float32[N,T,C] -> text string[N]
// and score float32[N] (mean probability of the kept characters). Greedy CTC: the best
// class per step, repeats merged, blanks dropped. Class 0 is the blank, class i is line i
// of "dictionary"; with "space": true one more class, a space, follows the dictionary
// (PaddleOCR's use_space_char).
#include "pipeline/step.h"

namespace twinrt::pipeline {
namespace {

class CtcDecode final : public Step {
 public:
  explicit CtcDecode(std::vector<std::string> classes) : classes_(std::move(classes)) {}

  Result<ValueMap> run(const ValueMap& inputs) const override {
    ASSIGN_OR_RETURN(Tensor probs, tensor_input(inputs, "probs", DataType::kFloat, 3));
    const int64_t n = probs.dim(0), steps = probs.dim(1), c = probs.dim(2);
    if (c != static_cast<int64_t>(classes_.size()))
      return invalid_argument("input 'probs' has " + std::to_string(c) + " classes, the dictionary gives " +
                              std::to_string(classes_.size()) + " (blank + lines" + ")");
    std::vector<std::string> texts;
    ASSIGN_OR_RETURN(Tensor scores, Tensor::create(DataType::kFloat, {n}));
    for (int64_t i = 0; i < n; ++i) {
      std::string text;
      double sum = 0;
      int kept = 0;
      int64_t previous = -1;
      for (int64_t t = 0; t < steps; ++t) {
        const float* row = probs.data<float>() + (i * steps + t) * c;
        int64_t best = 0;
        for (int64_t k = 1; k < c; ++k)
          if (row[k] > row[best]) best = k;
        if (best != 0 && best != previous) {
          text += classes_[static_cast<size_t>(best)];
          sum += row[best];
          ++kept;
        }
        previous = best;
      }
      texts.push_back(std::move(text));
      scores.data<float>()[i] = kept ? static_cast<float>(sum / kept) : 0.0f;
    }
    ASSIGN_OR_RETURN(Tensor text_t, string_tensor(texts));
    return ValueMap{{"text", PipelineValue::single(std::move(text_t))}, {"score", PipelineValue::single(std::move(scores))}};
  }

 private:
  std::vector<std::string> classes_;  // index 0: blank
};

Result<std::unique_ptr<Step>> create(const nlohmann::json& params, const StepContext& context) {
  TRY(check_param_keys(params, {"dictionary", "space"}));
  ASSIGN_OR_RETURN(std::vector<std::string> lines, lines_param(params, "dictionary", context));
  while (!lines.empty() && lines.back().empty()) lines.pop_back();  // a final newline
  std::vector<std::string> classes = {""};
  classes.insert(classes.end(), lines.begin(), lines.end());
  ASSIGN_OR_RETURN(bool space, bool_param(params, "space", false));
  if (space) classes.push_back(" ");
  return std::unique_ptr<Step>(new CtcDecode(std::move(classes)));
}

TWINRT_REGISTER_STEP(ctc_decode, {"ctc_decode", "probs float32[N,T,C] -> text string[N], score float32[N] (greedy CTC, dictionary file)",
                                  {"probs"}, {"text", "score"}, {"dictionary"}, create});

}  // namespace
}  // namespace twinrt::pipeline
