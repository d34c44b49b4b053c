// StringNormalizer, TfIdfVectorizer, the random ops and the optimizers on small cases
// with hand-computed results (random ops: by property, since values are
// implementation-defined).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "control_model_builder.h"

namespace twinrt {
namespace {

using namespace control_testing;

const DataType kF = DataType::kFloat;

Result<std::map<std::string, Value>> run_one(const std::string& op, std::vector<ir::Attribute> attrs,
                                             std::map<std::string, Value> feeds, int64_t opset,
                                             const std::string& domain = "", size_t outputs = 1) {
  std::vector<std::string> in_names, out_names;
  std::vector<ir::ValueInfo> ins, outs;
  for (const auto& [name, v] : feeds) {
    in_names.push_back(name);
    ins.push_back(any_info(name));
  }
  for (size_t i = 0; i < outputs; ++i) {
    out_names.push_back("out" + std::to_string(i));
    outs.push_back(any_info(out_names.back()));
  }
  auto g = graph({node(op, in_names, out_names, std::move(attrs), domain)}, ins, outs);
  return run_graph(g, opset, feeds);
}

Value strings(std::vector<int64_t> shape, std::vector<std::string> v) { return val<std::string>(std::move(shape), std::move(v)); }

TEST(ControlString, NormalizerMatchesStopwordsIgnoringCaseAndLowers) {
  auto out = run_one("StringNormalizer",
                     {string_attr("case_change_action", "LOWER"), strings_attr("stopwords", {"the", "A"})},
                     {{"x", strings({1, 4}, {"The", "Cat", "a", "HÉllo"})}}, 10);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at("out0").tensor.shape(), (std::vector<int64_t>{1, 2}));
  // Only ASCII letters change case; the UTF-8 É passes through.
  EXPECT_EQ(values_of<std::string>(out->at("out0").tensor), (std::vector<std::string>{"cat", "hÉllo"}));
}

TEST(ControlString, NormalizerDroppingEverythingLeavesOneEmptyString) {
  auto out = run_one("StringNormalizer", {int_attr("is_case_sensitive", 1), strings_attr("stopwords", {"x"})},
                     {{"x", strings({1, 2}, {"x", "x"})}}, 10);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at("out0").tensor.shape(), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(values_of<std::string>(out->at("out0").tensor), (std::vector<std::string>{""}));
  auto bad = run_one("StringNormalizer", {}, {{"x", strings({2, 1}, {"a", "b"})}}, 10);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("[C] or [1, C]"), std::string::npos) << bad.status().message();
}

TEST(ControlString, TfIdfWeightsStringNgrams) {
  // Pool: unigrams "a", "b"; bigram ("a", "b"). Row: a b a b b.
  // Counts: a 2, b 3, (a,b) 2. IDF: weight if present; TFIDF: count * weight.
  const std::vector<ir::Attribute> base = {int_attr("min_gram_length", 1), int_attr("max_gram_length", 2),
                                           int_attr("max_skip_count", 0), ints_attr("ngram_counts", {0, 2}),
                                           ints_attr("ngram_indexes", {2, 0, 1}),
                                           strings_attr("pool_strings", {"a", "b", "a", "b"}),
                                           floats_attr("weights", {0.5f, 2.0f, 4.0f})};
  const std::map<std::string, std::vector<float>> expected = {{"IDF", {2.0f, 4.0f, 0.5f}}, {"TFIDF", {6.0f, 8.0f, 1.0f}}};
  for (const auto& [mode, want] : expected) {
    auto attrs = base;
    attrs.push_back(string_attr("mode", mode));
    auto out = run_one("TfIdfVectorizer", attrs, {{"x", strings({5}, {"a", "b", "a", "b", "b"})}}, 9);
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    EXPECT_EQ(values_of<float>(out->at("out0").tensor), want) << mode;
  }
}

TEST(ControlString, TfIdfRejectsAPoolThatDoesNotSplitIntoNgrams) {
  auto out = run_one("TfIdfVectorizer",
                     {string_attr("mode", "TF"), int_attr("min_gram_length", 2), int_attr("max_gram_length", 2),
                      ints_attr("ngram_counts", {0, 0}), ints_attr("ngram_indexes", {0}), ints_attr("pool_int64s", {1, 2, 3})},
                     {{"x", val<int64_t>({3}, {1, 2, 3})}}, 9);
  ASSERT_FALSE(out.is_ok());
  EXPECT_NE(out.status().message().find("whole 2-grams"), std::string::npos) << out.status().message();
}

TEST(ControlRandom, SeededUniformIsRepeatableAndInRange) {
  const std::vector<ir::Attribute> attrs = {ints_attr("shape", {1000}), float_attr("low", -2.0f),
                                            float_attr("high", 3.0f), float_attr("seed", 7.0f)};
  auto first = run_one("RandomUniform", attrs, {}, 1);
  auto second = run_one("RandomUniform", attrs, {}, 1);
  ASSERT_TRUE(first.is_ok() && second.is_ok());
  const auto a = values_of<float>(first->at("out0").tensor);
  EXPECT_EQ(a, values_of<float>(second->at("out0").tensor));
  double mean = 0;
  for (float v : a) {
    EXPECT_GE(v, -2.0f);
    EXPECT_LE(v, 3.0f);
    mean += v / a.size();
  }
  EXPECT_NEAR(mean, 0.5, 0.2);  // a loose sanity bound (1000 draws: sd of the mean ~0.05)
}

TEST(ControlRandom, NormalLikeTakesShapeAndTypeFromItsInput) {
  auto out = run_one("RandomNormalLike", {float_attr("mean", 10.0f), float_attr("scale", 0.5f), float_attr("seed", 1.0f)},
                     {{"x", val<double>({4, 250}, std::vector<double>(1000, 0.0))}}, 1);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const Tensor& t = out->at("out0").tensor;
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{4, 250}));
  double mean = 0;
  for (double v : values_of<double>(t)) mean += v / 1000;
  EXPECT_NEAR(mean, 10.0, 0.1);  // sd of the mean is ~0.016
}

TEST(ControlRandom, BernoulliWithCertainProbabilities) {
  auto out = run_one("Bernoulli", {int_attr("dtype", static_cast<int64_t>(DataType::kBool))},
                     {{"p", val<float>({4}, {0, 1, 1, 0})}}, 15);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values_of<bool>(out->at("out0").tensor), (std::vector<bool>{false, true, true, false}));
}

TEST(ControlRandom, MultinomialPicksTheOnlyPossibleClass) {
  // log-probabilities: class 2 has all the mass in row 0, class 0 in row 1.
  const float ninf = -std::numeric_limits<float>::infinity();
  auto out = run_one("Multinomial", {int_attr("sample_size", 3), int_attr("dtype", 7)},
                     {{"x", val<float>({2, 3}, {ninf, ninf, 0, 5, ninf, ninf})}}, 7);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values_of<int64_t>(out->at("out0").tensor), (std::vector<int64_t>{2, 2, 2, 0, 0, 0}));
}

TEST(ControlTraining, MomentumFirstStepUsesBetaOne) {
  // T = 0: beta_adjusted = 1. X = 1, G = 2, V = 3, alpha 0.5, norm 0.1, R 0.1:
  // G_reg = 0.1 + 2 = 2.1; V_new = 1.5 + 2.1 = 3.6; standard X_new = 1 - 0.36 = 0.64;
  // nesterov X_new = 1 - 0.1 * (2.1 + 1.8) = 0.61.
  for (const auto& [mode, x_new] : std::vector<std::pair<std::string, double>>{{"standard", 0.64}, {"nesterov", 0.61}}) {
    auto out = run_one("Momentum",
                       {float_attr("alpha", 0.5f), float_attr("beta", 0.25f), float_attr("norm_coefficient", 0.1f),
                        string_attr("mode", mode)},
                       {{"a_R", val<float>({}, {0.1f})}, {"b_T", val<int64_t>({}, {0})}, {"c_X", val<float>({1}, {1})},
                        {"d_G", val<float>({1}, {2})}, {"e_V", val<float>({1}, {3})}},
                       1, "ai.onnx.preview.training", 2);
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    EXPECT_NEAR(values_of<float>(out->at("out0").tensor)[0], x_new, 1e-6) << mode;
    EXPECT_NEAR(values_of<float>(out->at("out1").tensor)[0], 3.6, 1e-6) << mode;
  }
}

}  // namespace
}  // namespace twinrt
