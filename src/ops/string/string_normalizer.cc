// StringNormalizer: drops stop words from a [C] or [1, C] string tensor, then lower- or
// upper-cases what is left.
//
// Case mapping and case-insensitive stop-word matching cover ASCII letters only; other
// bytes (UTF-8 sequences included) pass through unchanged, so the `locale` attribute is
// accepted and ignored. This keeps results identical natively and in WebAssembly, where
// no locale database exists.
#include <set>

#include "ops/op.h"

namespace twinrt {
namespace {

enum class CaseChange { kNone, kLower, kUpper };

std::string ascii_lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string ascii_upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

class StringNormalizerKernel final : public OpKernel {
 public:
  StringNormalizerKernel(CaseChange change, bool case_sensitive, std::set<std::string> stopwords)
      : change_(change), case_sensitive_(case_sensitive), stopwords_(std::move(stopwords)) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* s = ctx.shape(0);
    ir::Shape out;
    if (s && s->size() == 2) out.push_back((*s)[0]);
    out.push_back(ir::Dim{});
    ctx.set_output(0, DataType::kString, s ? std::optional<ir::Shape>(out) : std::nullopt);
    return Status::ok();
  }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.tensor_input(0));
    if (x->dtype() != DataType::kString) return invalid_argument(std::string("X must be string, got ") + dtype_name(x->dtype()));
    const bool two_dim = x->rank() == 2;
    if (!(x->rank() == 1 || (two_dim && x->dim(0) == 1)))
      return invalid_argument("X must have shape [C] or [1, C], got " + shape_to_string(x->shape()));
    std::vector<std::string> kept;
    const auto* in = x->data<std::string>();
    for (int64_t i = 0; i < x->numel(); ++i) {
      if (stopwords_.count(case_sensitive_ ? in[i] : ascii_lower(in[i]))) continue;
      kept.push_back(change_ == CaseChange::kLower ? ascii_lower(in[i])
                     : change_ == CaseChange::kUpper ? ascii_upper(in[i]) : in[i]);
    }
    if (kept.empty()) kept.emplace_back();  // all dropped: one empty string, as the spec says
    std::vector<int64_t> shape = {static_cast<int64_t>(kept.size())};
    if (two_dim) shape.insert(shape.begin(), 1);
    ASSIGN_OR_RETURN(Tensor* y, ctx.output(0, DataType::kString, shape));
    auto* out = y->data<std::string>();
    for (size_t i = 0; i < kept.size(); ++i) out[i] = std::move(kept[i]);
    return Status::ok();
  }

 private:
  CaseChange change_;
  bool case_sensitive_;
  std::set<std::string> stopwords_;  // lower-cased when matching is case-insensitive
};

Result<std::unique_ptr<OpKernel>> create_string_normalizer(const KernelInit& init) {
  if (init.num_inputs() != 1 || !init.has_input(0)) return init.error("takes exactly one input");
  ASSIGN_OR_RETURN(std::string action, init.attr_string("case_change_action", "NONE"));
  CaseChange change;
  if (action == "NONE") change = CaseChange::kNone;
  else if (action == "LOWER") change = CaseChange::kLower;
  else if (action == "UPPER") change = CaseChange::kUpper;
  else return init.error("case_change_action must be LOWER, UPPER or NONE, got '" + action + "'");
  ASSIGN_OR_RETURN(int64_t case_sensitive, init.attr_int("is_case_sensitive", 0));
  ASSIGN_OR_RETURN(std::vector<std::string> words, init.attr_strings("stopwords"));
  std::set<std::string> stopwords;
  for (const auto& w : words) stopwords.insert(case_sensitive ? w : ascii_lower(w));
  return make_kernel<StringNormalizerKernel>(change, case_sensitive != 0, std::move(stopwords));
}

}  // namespace

TWINRT_REGISTER_OP("StringNormalizer", 10, create_string_normalizer);

}  // namespace twinrt
