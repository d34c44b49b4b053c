// quantize::convert_fp16 with calibration cases: the nodes that meet values beyond float16's
// range stay float32 (fp16_islands.h), the others become float16, and the result runs.
#include <gtest/gtest.h>

#include <cmath>

#include "../unit/passes_test_util.h"
#include "quantize/graph_edit.h"
#include "quantize/quantize.h"
#include "runtime/session_impl.h"

namespace twinrt::quantize {
namespace {

// rms = Sqrt(ReduceMean(x * x)) (x * x overflows float16 for x near 1000); z = Relu(x).
ir::Model rms_model() {
  ir::Graph g;
  g.nodes.push_back(make_node("Mul", "square", {"x", "x"}, {"sq"}));
  g.nodes.push_back(make_node("ReduceMean", "mean", {"sq"}, {"mean_sq"}, {ir::ints_attribute("axes", {-1})}));
  g.nodes.push_back(make_node("Sqrt", "root", {"mean_sq"}, {"rms"}));
  g.nodes.push_back(make_node("Relu", "relu", {"x"}, {"z"}));
  g.inputs.push_back({"x", ir::TypeInfo::tensor(DataType::kFloat), {}});
  for (const char* out : {"rms", "z"}) g.outputs.push_back({out, ir::TypeInfo::tensor(DataType::kFloat), {}});
  return model_of(std::move(g), 13);
}

TEST(QuantizeFp16Islands, OverflowingPathStaysFloat32) {
  auto x = Tensor::from_vector<float>({1, 4}, {1000.0f, 900.0f, 800.0f, 700.0f});
  ASSERT_TRUE(x.is_ok());
  ir::Model model = rms_model();
  QuantizeOptions options;
  options.keep_io_types = true;
  auto summary = convert_fp16(model, options, {Feeds{{"x", *x}}});
  ASSERT_TRUE(summary.is_ok()) << summary.status().message();
  ASSERT_EQ(summary->skipped.size(), 3u);
  EXPECT_NE(summary->skipped[0].find("node 'square' (Mul): kept in float32, output 'sq' reaches 1e+06"), std::string::npos)
      << summary->skipped[0];
  EXPECT_NE(summary->skipped[1].find("'mean' (ReduceMean)"), std::string::npos);
  EXPECT_NE(summary->skipped[2].find("'root' (Sqrt)"), std::string::npos);
  EXPECT_EQ(summary->quantized.count("Relu"), 1u);  // the Relu path is float16

  auto session = SessionImpl::create(model, SessionOptions{});
  ASSERT_TRUE(session.is_ok()) << session.status().message();
  auto out = (*session)->run({{"x", Value::of(*x)}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const float rms = out->at("rms").tensor.data<float>()[0];
  EXPECT_NEAR(rms, std::sqrt((1e6 + 81e4 + 64e4 + 49e4) / 4.0), 1.0);  // float16 x: 1000, 900, 800, 700 are exact
}

TEST(QuantizeFp16Islands, NoIslandWithoutOverflow) {
  auto x = Tensor::from_vector<float>({1, 4}, {1.0f, 2.0f, 3.0f, 4.0f});
  ASSERT_TRUE(x.is_ok());
  ir::Model model = rms_model();
  auto summary = convert_fp16(model, QuantizeOptions{}, {Feeds{{"x", *x}}});
  ASSERT_TRUE(summary.is_ok()) << summary.status().message();
  EXPECT_TRUE(summary->skipped.empty());
  EXPECT_EQ(summary->quantized.count("Cast"), 0u);
}

}  // namespace
}  // namespace twinrt::quantize
