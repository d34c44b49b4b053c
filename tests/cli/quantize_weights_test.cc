// quantize::quantize_weights: full-range ([-127, 127]) and 7-bit ([-64, 64], --reduce-range)
// symmetric weights, per tensor and per channel.
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

}  // namespace
}  // namespace twinrt::quantize
