// The NHWC int8 convolution (ops/quant/conv_nhwc.h) on every tier against a direct loop
// over the definition (int32 sums of (x - x_zero) * w, padding contributing 0, the bias,
// the one requantization), at pixel counts below, at and above the tile and the row chunk,
// output channels around the column panel and block, strides, padding, dilation, 7-bit and
// full-range weights, 1 and 2 threads; and the layout_nhwc pass: what it converts and the
// same bytes as the NCHW graph.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "control_model_builder.h"
#include "kernels/conv/i8_winograd.h"
#include "kernels/cpu/isa.h"
#include "ops/quant/conv_nhwc.h"
#include "passes/passes.h"
#include "passes_test_util.h"

namespace twinrt {
namespace {

using namespace control_testing;

struct ConvCase {
  quant::NhwcConvShape s;
  int64_t out_channels;
  bool seven_bit;
};

ConvCase conv_case(int64_t batch, int64_t h, int64_t w, int64_t c, int64_t m, int64_t k, int64_t stride, int64_t pad,
                   int64_t dilation, bool seven_bit) {
  quant::NhwcConvShape s;
  s.batch = batch, s.in_h = h, s.in_w = w, s.channels = c;
  s.kernel_h = s.kernel_w = k, s.stride_h = s.stride_w = stride, s.dilation_h = s.dilation_w = dilation;
  s.pad_top = s.pad_left = pad;
  s.out_h = (h + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  s.out_w = (w + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  return {s, m, seven_bit};
}

// The definition, element by element, requantized by the scalar tier.
std::vector<uint8_t> direct(const ConvCase& c, const std::vector<uint8_t>& x, uint8_t xz, const std::vector<int8_t>& w,
                            const std::vector<int32_t>& bias, const std::vector<float>& mult, int32_t yz) {
  const quant::NhwcConvShape& s = c.s;
  const kernels::I8GemmKernel& scalar = kernels::i8_gemm_kernel(Isa::kScalar);
  std::vector<uint8_t> y(static_cast<size_t>(s.batch * s.out_h * s.out_w * c.out_channels));
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t oh = 0; oh < s.out_h; ++oh)
      for (int64_t ow = 0; ow < s.out_w; ++ow)
        for (int64_t m = 0; m < c.out_channels; ++m) {
          uint32_t acc = 0;
          for (int64_t ch = 0; ch < s.channels; ++ch)
            for (int64_t kh = 0; kh < s.kernel_h; ++kh)
              for (int64_t kw = 0; kw < s.kernel_w; ++kw) {
                const int64_t ih = oh * s.stride_h - s.pad_top + kh * s.dilation_h;
                const int64_t iw = ow * s.stride_w - s.pad_left + kw * s.dilation_w;
                if (ih < 0 || ih >= s.in_h || iw < 0 || iw >= s.in_w) continue;
                const int32_t xv = x[static_cast<size_t>(((n * s.in_h + ih) * s.in_w + iw) * s.channels + ch)] - xz;
                acc += static_cast<uint32_t>(xv * w[static_cast<size_t>(((m * s.channels + ch) * s.kernel_h + kh) * s.kernel_w + kw)]);
              }
          const size_t at = static_cast<size_t>(((n * s.out_h + oh) * s.out_w + ow) * c.out_channels + m);
          const int32_t sum = static_cast<int32_t>(acc);
          scalar.requantize_u8(&sum, 1, bias[static_cast<size_t>(m)], &mult[static_cast<size_t>(m)], 0, yz, &y[at]);
        }
  return y;
}

TEST(ConvNhwc, MatchesTheDefinitionOnEveryTier) {
  std::mt19937 rng(11);
  std::vector<ConvCase> cases;
  for (bool seven : {false, true}) {
    cases.push_back(conv_case(1, 1, 5, 4, 8, 1, 1, 0, 1, seven));      // 5 pixels: below the 6-row tile
    cases.push_back(conv_case(1, 2, 3, 8, 7, 1, 1, 0, 1, seven));      // 6 pixels, 7 channels: one partial panel
    cases.push_back(conv_case(2, 7, 9, 12, 17, 3, 1, 1, 1, seven));    // batch 2, 3x3, padding, column tail
    cases.push_back(conv_case(1, 11, 10, 8, 9, 3, 2, 1, 1, seven));    // stride 2
    cases.push_back(conv_case(1, 9, 9, 4, 16, 3, 1, 2, 2, seven));     // dilation 2
    cases.push_back(conv_case(1, 14, 13, 16, 24, 1, 2, 0, 1, seven));  // strided 1x1
    cases.push_back(conv_case(1, 10, 11, 64, 344, 3, 1, 1, 1, seven)); // more than one column block, 110 pixels: two row chunks
    cases.push_back(conv_case(1, 3, 4, 4, 5, 5, 1, 2, 1, seven));      // a window larger than the image
    cases.push_back(conv_case(1, 4, 7, 12, 40, 1, 1, 0, 1, seven));    // 40 channels: 3 of a 64-column tile's vectors
    cases.push_back(conv_case(1, 5, 6, 8, 120, 3, 1, 1, 1, seven));    // 64 + 56 channels: a whole panel and 4 partial vectors
    // Winograd on tiers with an int16 tile: odd output sizes (blocks half outside), no
    // padding, channels not a multiple of 8 (the input transform's tail) and 169 blocks of
    // 64 channels (two chunks).
    cases.push_back(conv_case(2, 7, 6, 12, 13, 3, 1, 0, 1, seven));
    cases.push_back(conv_case(1, 26, 25, 64, 20, 3, 1, 1, 1, seven));
  }
  for (const ConvCase& c : cases) {
    const quant::NhwcConvShape& s = c.s;
    std::vector<uint8_t> x(static_cast<size_t>(s.batch * s.in_h * s.in_w * s.channels));
    for (uint8_t& v : x) v = static_cast<uint8_t>(rng());
    std::vector<int8_t> w(static_cast<size_t>(c.out_channels * s.channels * s.taps()));
    for (int8_t& v : w) v = static_cast<int8_t>(c.seven_bit ? static_cast<int>(rng() % 129) - 64 : static_cast<int>(rng() % 256) - 128);
    // Biases and multipliers that spread the bytes over 0-255 (a sum about 10^4 sqrt(taps * C)
    // to about 1-50), so a wrong sum shows; channel 0's bias is any int32: the sums wrap.
    std::vector<int32_t> bias(static_cast<size_t>(c.out_channels));
    for (int32_t& b : bias) b = static_cast<int32_t>(rng() % 200001) - 100000;
    bias[0] = static_cast<int32_t>(rng());
    std::vector<float> mult(static_cast<size_t>(c.out_channels));
    const float spread = 1e-4f / std::sqrt(static_cast<float>(s.taps() * s.channels));
    for (float& f : mult) f = spread * static_cast<float>(1 + rng() % 50);
    const uint8_t xz = static_cast<uint8_t>(rng());
    const int32_t yz = static_cast<int32_t>(rng() % 256);
    const std::vector<uint8_t> want = direct(c, x, xz, w, bias, mult, yz);
    const Tensor wt = make<int8_t>({c.out_channels, s.channels, s.kernel_h, s.kernel_w}, w);
    for (Isa isa : kernels::supported_isas()) {
      const bool unit_steps = s.stride_h == 1 && s.dilation_h == 1;
      const std::optional<quant::NhwcConvWeights> packed = quant::pack_nhwc_conv_weights(isa, wt, unit_steps);
      ASSERT_TRUE(packed.has_value());
      const bool winograd = unit_steps && s.kernel_h == 3 && kernels::i8_indirect_kernel(isa).indirect_i16;
      EXPECT_EQ(packed->winograd.empty(), !winograd);
      if (!winograd) {
        EXPECT_EQ(packed->panels.signed_7bit, c.seven_bit);
      }
      const std::vector<int32_t> col_add = quant::fold_nhwc_bias(*packed, bias, xz);
      for (int threads : {1, 2}) {
        ThreadPool pool(threads);
        std::vector<uint8_t> got(want.size(), 0xcd);
        quant::conv_nhwc_u8(pool, s, *packed, x.data(), xz, col_add.data(), mult.data(), yz, got.data());
        EXPECT_EQ(got, want) << isa_name(isa) << " threads " << threads << " " << s.in_h << "x" << s.in_w << "x"
                             << s.channels << " -> " << c.out_channels << " k" << s.kernel_h << " s" << s.stride_h;
      }
    }
  }
}

TEST(ConvNhwc, RefusesWeightsItCannotPack) {
  EXPECT_FALSE(quant::pack_nhwc_conv_weights(Isa::kScalar, make<int8_t>({2, 3, 1, 1}, std::vector<int8_t>(6, 1)), true));  // C % 4
  EXPECT_FALSE(quant::pack_nhwc_conv_weights(Isa::kScalar, make<uint8_t>({2, 4, 1, 1}, std::vector<uint8_t>(8, 1)), true));
  EXPECT_FALSE(quant::pack_nhwc_conv_weights(Isa::kScalar, make<int8_t>({2, 4, 3}, std::vector<int8_t>(24, 1)), true));  // 1-D
}

// The Winograd sums are 4 times the direct ones, exact while that fits int32: at the largest
// channel count the tiers take, the extreme products (255 * -128 at every tap, and 255 * 127)
// give the definition's bytes; 4 channels more and the weights stay in the direct form.
TEST(ConvNhwc, WinogradIsExactAtItsChannelBound) {
  const int64_t c = kernels::kI8WinogradMaxChannels / 4 * 4;
  for (Isa isa : kernels::supported_isas()) {
    if (!kernels::i8_indirect_kernel(isa).indirect_i16) continue;
    const Tensor over = make<int8_t>({1, c + 4, 3, 3}, std::vector<int8_t>(static_cast<size_t>((c + 4) * 9), 1));
    EXPECT_TRUE(quant::pack_nhwc_conv_weights(isa, over, true)->winograd.empty());
    std::mt19937 rng(3);
    for (int extreme : {-128, 127, 0}) {  // 0: random values
      const ConvCase cc = conv_case(1, 5, 4, c, 2, 3, 1, 1, 1, false);
      std::vector<uint8_t> x(static_cast<size_t>(20 * c), 255);
      std::vector<int8_t> w(static_cast<size_t>(2 * c * 9), static_cast<int8_t>(extreme));
      if (extreme == 0) {
        for (uint8_t& v : x) v = static_cast<uint8_t>(rng());
        for (int8_t& v : w) v = static_cast<int8_t>(rng());
      }
      const std::vector<int32_t> bias = {0, 0};
      // Extreme sums (up to 9 * c * 255 * 128, about 2^29) to about +-107; random ones (about
      // 1.4e6) to about +-70.
      const float f = extreme == 0 ? 5e-5f : 2e-7f;
      const std::vector<float> mult = {f, f};
      const std::vector<uint8_t> want = direct(cc, x, 0, w, bias, mult, 128);
      const std::optional<quant::NhwcConvWeights> packed = quant::pack_nhwc_conv_weights(isa, make<int8_t>({2, c, 3, 3}, w), true);
      ASSERT_FALSE(packed->winograd.empty());
      const std::vector<int32_t> col_add = quant::fold_nhwc_bias(*packed, bias, 0);
      ThreadPool pool(1);
      std::vector<uint8_t> got(want.size(), 0xcd);
      quant::conv_nhwc_u8(pool, cc.s, *packed, x.data(), 0, col_add.data(), mult.data(), 128, got.data());
      EXPECT_EQ(got, want) << isa_name(isa) << " weights " << extreme;
    }
  }
}

// x -> QLinearConv 3x3 (8 -> 12) -> a -> QLinearConv 1x1 (12 -> 12) -> b; the QDQ residual add
// of a and b (QdqAdd after fuse_qdq_add; b first when b_first) -> y;
// a is a graph output too, y is read by a DequantizeLinear; `odd` adds a conv the pass
// leaves alone (uint8 weights). The add becomes part of b's convolution (b is read by the
// add alone).
ir::Model conv_model(bool odd, bool b_first = false) {
  std::mt19937 rng(5);
  const auto weights = [&](int64_t m, int64_t c, int64_t k) {
    std::vector<int8_t> v(static_cast<size_t>(m * c * k * k));
    for (int8_t& b : v) b = static_cast<int8_t>(rng());
    return make<int8_t>({m, c, k, k}, v);
  };
  const auto conv = [](const std::string& x, const std::string& w, const std::string& y, int64_t k) {
    return node("QLinearConv", {x, "s_in", "z_u8", w, "s_w", "z_s8", "s_out", "z_u8", w + "_bias"}, {y},
                {ir::ints_attribute("kernel_shape", {k, k}), ir::ints_attribute("pads", {k / 2, k / 2, k / 2, k / 2})});
  };
  std::vector<ir::Node> nodes = {conv("x", "w1", "a", 3),
                                 conv("a", "w2", "b", 1),
                                 node("DequantizeLinear", {"a", "s_out", "z_u8"}, {"af"}),
                                 node("DequantizeLinear", {"b", "s_out", "z_u8"}, {"bf"}),
                                 node("Add", b_first ? std::vector<std::string>{"bf", "af"} : std::vector<std::string>{"af", "bf"}, {"sum"}),
                                 node("Relu", {"sum"}, {"pre"}),
                                 node("QuantizeLinear", {"pre", "s_out", "z_u8"}, {"y"}),  // fuse_qdq_add: QdqAdd
                                 node("DequantizeLinear", {"y", "s_out", "z_u8"}, {"yf"})};
  if (odd) nodes.push_back(node("QLinearConv", {"y", "s_in", "z_u8", "w3", "s_w", "z_u8", "s_out", "z_u8"}, {"c"}));
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i].name = "n" + std::to_string(i);
  std::vector<ir::ValueInfo> outputs = {tensor_info("yf", DataType::kFloat), tensor_info("a", DataType::kUInt8)};
  if (odd) outputs.push_back(tensor_info("c", DataType::kUInt8));
  ir::Graph g = graph(nodes, {tensor_info("x", DataType::kUInt8)}, outputs);
  add_initializer(g, "s_in", make<float>({}, {0.02f}));
  add_initializer(g, "s_w", make<float>({}, {0.004f}));
  add_initializer(g, "s_out", make<float>({}, {0.05f}));
  add_initializer(g, "z_u8", make<uint8_t>({}, {113}));
  add_initializer(g, "z_s8", make<int8_t>({}, {0}));
  add_initializer(g, "w1", weights(12, 8, 3));
  add_initializer(g, "w2", weights(12, 12, 1));
  add_initializer(g, "w3", make<uint8_t>({4, 12, 1, 1}, std::vector<uint8_t>(48, 7)));
  add_initializer(g, "w1_bias", make<int32_t>({12}, std::vector<int32_t>(12, -900)));
  add_initializer(g, "w2_bias", make<int32_t>({12}, std::vector<int32_t>(12, 4000)));
  return model_of(std::move(g), 13);
}

TEST(LayoutNhwc, ConvertsTheRegionAndTransposesAtItsEdges) {
  ir::Model m = conv_model(true);
  passes::optimize(m, OptimizationLevel::kBasic, Mode::kDefault);
  std::vector<std::string> ops;
  for (const ir::Node& n : m.graph->nodes) ops.push_back(n.op_type);
  EXPECT_EQ(ops, (std::vector<std::string>{"Transpose", "QLinearConvNhwc", "QLinearConvNhwc", "Transpose",
                                           "DequantizeLinear", "QLinearConv", "Transpose"}));
  // The second convolution absorbed the residual add and names its nodes.
  const ir::Node& conv = m.graph->nodes[2];
  EXPECT_EQ(conv.inputs.size(), 16u);
  EXPECT_EQ(conv.outputs[0], "y__nhwc");
  for (const char* name : {"n1", "n4", "n5", "n6"})
    EXPECT_NE(std::find(conv.fused_from.begin(), conv.fused_from.end(), name), conv.fused_from.end()) << name;
}

TEST(LayoutNhwc, SameBytesAsTheNchwGraph) {
  std::mt19937 rng(3);
  std::vector<uint8_t> xv(2 * 8 * 9 * 7);
  for (uint8_t& v : xv) v = static_cast<uint8_t>(rng());
  const Tensor x = make<uint8_t>({2, 8, 9, 7}, xv);
  const auto run = [&](OptimizationLevel level, Isa isa, int threads, bool b_first) {
    SessionOptions options;
    options.optimization = level;
    options.isa = isa;
    options.threads = threads;
    auto session = SessionImpl::create(conv_model(true, b_first), options);
    EXPECT_TRUE(session.is_ok()) << session.status().message();
    auto out = (*session)->run({{"x", Value::of(x)}});
    EXPECT_TRUE(out.is_ok()) << out.status().message();
    return *out;
  };
  for (bool b_first : {false, true}) {
  const auto plain = run(OptimizationLevel::kNone, Isa::kScalar, 1, b_first);
  for (Isa isa : kernels::supported_isas())
    for (int threads : {1, 2}) {
      const auto nhwc = run(OptimizationLevel::kBasic, isa, threads, b_first);
      for (const char* name : {"yf", "a", "c"}) {
        const Tensor& want = plain.at(name).tensor;
        const Tensor& got = nhwc.at(name).tensor;
        ASSERT_EQ(got.shape(), want.shape()) << name;
        EXPECT_EQ(std::memcmp(got.raw(), want.raw(), static_cast<size_t>(want.nbytes())), 0)
            << name << " " << isa_name(isa) << " threads " << threads << " b first " << b_first;
      }
    }
  }
}

}  // namespace
}  // namespace twinrt
