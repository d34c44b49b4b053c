// BatchNormalization prepares the per-channel affine maps of constant statistics when its
// kernel is created (ops/nn/batch_norm.cc). The prepared maps must give the bits of the maps
// computed from the same statistics fed at run time, and a feed that replaces a constant
// (an initializer that is also a graph input) must be used instead of the prepared map.
#include <gtest/gtest.h>

#include "control_model_builder.h"
#include "passes_test_util.h"

namespace twinrt {
namespace {

using namespace control_testing;

const char* const kStatistics[] = {"scale", "bias", "mean", "var"};

Tensor statistic(int i) {
  return i == 3 ? random_floats({8}, 6, 0.1f, 3.0f) : random_floats({8}, 3 + i, i == 0 ? 0.5f : -1.0f, 2.0f);
}

// x [2, 8, 5, 7] -> BatchNormalization -> y; the statistics named in `fed` are graph inputs,
// the others initializers, and those in `both` are initializers a feed may replace.
ir::Model batch_norm(const std::vector<std::string>& fed, const std::vector<std::string>& both = {}) {
  std::vector<ir::ValueInfo> inputs = {tensor_info("x", DataType::kFloat)};
  for (const std::string& name : fed) inputs.push_back(tensor_info(name, DataType::kFloat));
  for (const std::string& name : both) inputs.push_back(tensor_info(name, DataType::kFloat));
  ir::Graph g = graph({node("BatchNormalization", {"x", "scale", "bias", "mean", "var"}, {"y"}, {float_attr("epsilon", 1e-3f)})},
                      inputs, {tensor_info("y", DataType::kFloat)});
  for (int i = 0; i < 4; ++i)
    if (std::find(fed.begin(), fed.end(), kStatistics[i]) == fed.end()) add_initializer(g, kStatistics[i], statistic(i));
  return model_of(std::move(g), 15);
}

TEST(NnBatchNormConstants, PreparedStatisticsGiveTheBitsOfFedOnes) {
  const Tensor x = random_floats({2, 8, 5, 7}, 7, -3.0f, 3.0f);
  std::map<std::string, Tensor> feeds = {{"x", x}};
  for (int i = 0; i < 4; ++i) feeds[kStatistics[i]] = statistic(i);
  for (Mode mode : {Mode::kDefault, Mode::kExact, Mode::kReference})
    for (int threads : {1, 2}) {
      const Tensor prepared = run_model(batch_norm({}), mode, OptimizationLevel::kNone, {{"x", x}}, threads);
      const Tensor fed = run_model(batch_norm({"scale", "bias", "mean", "var"}), mode, OptimizationLevel::kNone, feeds);
      EXPECT_TRUE(same_bits(prepared, fed)) << mode_name(mode) << " " << threads << " threads";
    }
}

TEST(NnBatchNormConstants, AFeedReplacesAConstantStatistic) {
  const Tensor x = random_floats({2, 8, 5, 7}, 7, -3.0f, 3.0f);
  const Tensor other_mean = random_floats({8}, 11, -2.0f, 2.0f);
  std::map<std::string, Tensor> all = {{"x", x}};
  for (int i = 0; i < 4; ++i) all[kStatistics[i]] = statistic(i);
  all["mean"] = other_mean;
  for (Mode mode : {Mode::kDefault, Mode::kReference}) {
    const Tensor replaced = run_model(batch_norm({}, {"mean"}), mode, OptimizationLevel::kNone, {{"x", x}, {"mean", other_mean}});
    const Tensor fed = run_model(batch_norm({"scale", "bias", "mean", "var"}), mode, OptimizationLevel::kNone, all);
    EXPECT_TRUE(same_bits(replaced, fed)) << mode_name(mode);
    const Tensor kept = run_model(batch_norm({}, {"mean"}), mode, OptimizationLevel::kNone, {{"x", x}});
    EXPECT_FALSE(same_bits(kept, fed)) << mode_name(mode);
  }
}

}  // namespace
}  // namespace twinrt
