// Convolutions with few output positions run transposed (ops/nn/conv_rows.h): positions as
// the tile's rows, the weights packed as its columns. Each output must keep the bits of the
// usual layout in every mode, with bias, a fused residual and Relu, groups and threads.
#include <gtest/gtest.h>

#include <random>

#include "control_model_builder.h"
#include "kernels/cpu/isa.h"
#include "kernels/gemm/f32_gemm.h"
#include "ops/nn/conv_rows.h"
#include "passes_test_util.h"

namespace twinrt {
namespace {

using namespace control_testing;

TEST(ConvRows, TheAvx512TileComputesRoundedPanels) {
  const kernels::F32GemmKernel& tile = kernels::f32_gemm_kernel(Isa::kAvx512, true);
  EXPECT_EQ(tile.computed_rows(49), 52);  // four panels of 12, then a 4-row tile
  EXPECT_EQ(tile.computed_rows(56), 56);  // 8 rows past 48
  EXPECT_EQ(tile.computed_cols(49), 64);  // 32, then 17 columns take two vectors
  EXPECT_EQ(tile.computed_cols(48), 48);  // 32, then half a tile
  EXPECT_EQ(tile.computed_cols(64), 64);
}

TEST(ConvRows, ChosenForFewPositionsAndDeepWindows) {
  const kernels::F32GemmKernel& tile = kernels::f32_gemm_kernel(Isa::kAvx512, true);
  EXPECT_TRUE(nn::positions_as_rows(tile, 512, 49, 4608));   // ResNet-50's 3x3 at 7 x 7
  EXPECT_TRUE(nn::positions_as_rows(tile, 64, 49, 1152));
  EXPECT_FALSE(nn::positions_as_rows(tile, 960, 49, 160));   // the write-back costs more
  EXPECT_FALSE(nn::positions_as_rows(tile, 64, 3136, 576));  // positions fill the columns
  EXPECT_FALSE(nn::positions_as_rows(tile, 1024, 196, 256));
}

Tensor random_tensor(std::vector<int64_t> shape, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(static_cast<size_t>(shape_numel(shape)));
  for (float& x : v) x = dist(gen);
  return make<float>(std::move(shape), v);
}

struct Case {
  std::vector<int64_t> x, w;
  int64_t stride, pad, group;
};

// y = Relu(Conv(x, W, B) + r). With X's shape declared the session can choose the
// transposed layout when it creates the Conv; without, it cannot.
ir::Model conv_add_relu(const Case& c, bool declare_shape) {
  const std::vector<int64_t> y_shape = {c.x[0], c.w[0], (c.x[2] + 2 * c.pad - c.w[2]) / c.stride + 1,
                                        (c.x[3] + 2 * c.pad - c.w[3]) / c.stride + 1};
  ir::Graph g = graph({node("Conv", {"x", "w", "b"}, {"c"},
                            {ints_attr("pads", std::vector<int64_t>(4, c.pad)),
                             ints_attr("strides", {c.stride, c.stride}), int_attr("group", c.group)}),
                       node("Add", {"c", "r"}, {"s"}), node("Relu", {"s"}, {"y"})},
                      {tensor_info("x", DataType::kFloat, declare_shape ? std::optional(c.x) : std::nullopt),
                       tensor_info("r", DataType::kFloat, declare_shape ? std::optional(y_shape) : std::nullopt)},
                      {tensor_info("y", DataType::kFloat)});
  g.initializers["w"] = random_tensor(c.w, 1);
  g.initializers["b"] = random_tensor({c.w[0]}, 2);
  g.initializer_order = {"w", "b"};
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = 17;
  m.graph = std::make_shared<ir::Graph>(std::move(g));
  return m;
}

Tensor run(const Case& c, bool declare_shape, Mode mode, Isa isa, int threads) {
  SessionOptions options;
  options.mode = mode;
  options.isa = isa;
  options.threads = threads;
  auto session = SessionImpl::create(conv_add_relu(c, declare_shape), options);
  EXPECT_TRUE(session.is_ok()) << session.status().message();
  if (!session.is_ok()) return {};
  const int64_t out = (c.x[2] + 2 * c.pad - c.w[2]) / c.stride + 1;
  const std::map<std::string, Value> feeds = {{"x", Value::of(random_tensor(c.x, 3))},
                                              {"r", Value::of(random_tensor({c.x[0], c.w[0], out, out}, 4))}};
  auto result = (*session)->run(feeds);
  EXPECT_TRUE(result.is_ok()) << result.status().message();
  return result.is_ok() ? result->at("y").tensor : Tensor{};
}

TEST(ConvRows, SameBitsAsTheUsualLayout) {
  const Case cases[] = {
      {{1, 128, 14, 14}, {64, 128, 3, 3}, 2, 1, 1},   // im2col, 49 positions
      {{2, 1024, 7, 7}, {96, 1024, 1, 1}, 1, 0, 1},   // pointwise, a batch of two
      {{1, 256, 13, 13}, {80, 128, 3, 3}, 2, 1, 2},   // two groups, 7 x 7 output
  };
  for (const Case& c : cases)
    for (Mode mode : {Mode::kDefault, Mode::kExact})
      for (Isa isa : {Isa::kAvx512, Isa::kAvx2, Isa::kScalar}) {
        if (!kernels::isa_supported(isa)) continue;
        const Tensor usual = run(c, false, mode, isa, 1);
        for (int threads : {1, 2}) {
          const Tensor chosen = run(c, true, mode, isa, threads);
          EXPECT_TRUE(same_bits(chosen, usual))
              << "X " << shape_to_string(c.x) << " " << mode_name(mode) << " " << isa_name(isa) << " threads "
              << threads;
        }
      }
}

}  // namespace
}  // namespace twinrt
