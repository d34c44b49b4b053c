// quantize::quantize_weights: full-range ([-127, 127]) and 7-bit ([-64, 64], --reduce-range)
// symmetric weights, per tensor and per channel; activation_params.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "quantize/tensor_quant.h"

namespace twinrt::quantize {
namespace {

TEST(QuantizeWeights, LimitBoundsTheIntegersAndSetsTheScale) {
  const std::vector<float> w = {-2.0f, 1.0f, 0.5f, 2.0f, -0.25f, 0.1f};
  auto t = Tensor::from_vector<float>({2, 3}, w);
  ASSERT_TRUE(t.is_ok());
  for (int limit : {127, 64}) {
    for (bool per_channel : {false, true}) {
      auto q = quantize_weights(*t, per_channel, 0, limit);
      ASSERT_TRUE(q.is_ok()) << q.status().message();
      const int8_t* d = q->data.data<int8_t>();
      EXPECT_EQ(d[0], -limit);  // -max|w| of the tensor and of channel 0
      EXPECT_TRUE(std::all_of(d, d + 6, [&](int8_t v) { return v >= -limit && v <= limit; }));
      EXPECT_EQ(q->scale.data<float>()[0], 2.0f / static_cast<float>(limit));
    }
  }
  EXPECT_FALSE(quantize_weights(*t, false, 0, 128).is_ok());
  EXPECT_FALSE(quantize_weights(*t, false, 0, 0).is_ok());
}

// uint8 / int8, asymmetric / symmetric activation parameters (ONNX Runtime's conventions).
TEST(QuantizeActivationParams, TypesAndSymmetry) {
  const ActivationParams u8 = activation_params(-1.0f, 3.0f);
  EXPECT_FLOAT_EQ(u8.scale, 4.0f / 255.0f);
  EXPECT_EQ(u8.zero, 64);  // round(1 / (4 / 255)) = round(63.75)
  const ActivationParams s8 = activation_params(-1.0f, 3.0f, true);
  EXPECT_FLOAT_EQ(s8.scale, u8.scale);
  EXPECT_EQ(s8.zero, 64 - 128);
  const ActivationParams s8_relu = activation_params(0.0f, 3.0f, true);
  EXPECT_EQ(s8_relu.zero, -128);
  const ActivationParams s8_sym = activation_params(-1.0f, 3.0f, true, true);
  EXPECT_FLOAT_EQ(s8_sym.scale, 3.0f / 127.0f);
  EXPECT_EQ(s8_sym.zero, 0);
  const ActivationParams u8_sym = activation_params(-1.0f, 3.0f, false, true);
  EXPECT_FLOAT_EQ(u8_sym.scale, 6.0f / 255.0f);
  EXPECT_EQ(u8_sym.zero, 128);  // round(127.5), half to even
  const ActivationParams none = activation_params(0.0f, 0.0f, true, true);
  EXPECT_EQ(none.scale, 1.0f);
  EXPECT_EQ(none.zero, 0);
}

}  // namespace
}  // namespace twinrt::quantize
