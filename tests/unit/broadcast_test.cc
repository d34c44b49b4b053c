#include <gtest/gtest.h>

#include "kernels/math/half.h"
#include "ops/common/broadcast.h"

namespace twinrt {
namespace {

TEST(Broadcast, ShapesFollowNumpyRules) {
  auto r = broadcast_shapes({{2, 1, 4}, {3, 1}, {}});
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ(r.value(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_FALSE(broadcast_shapes({{2, 3}, {4}}).is_ok());
  auto z = broadcast_shapes({{0, 1}, {1, 5}});
  ASSERT_TRUE(z.is_ok());
  EXPECT_EQ(z.value(), (std::vector<int64_t>{0, 5}));
}

TEST(Broadcast, IteratorOffsets) {
  BroadcastIterator it({2, 3}, {{2, 1}, {3}});
  std::vector<std::pair<int64_t, int64_t>> seen;
  it.for_each([&](int64_t, const int64_t* off) { seen.emplace_back(off[0], off[1]); });
  std::vector<std::pair<int64_t, int64_t>> want = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}};
  EXPECT_EQ(seen, want);
}

TEST(Half, RoundTripsAndRounds) {
  EXPECT_EQ(math::float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(math::float_to_half(65504.0f), 0x7bff);
  EXPECT_EQ(math::float_to_half(65520.0f), 0x7c00);            // rounds up to inf
  EXPECT_EQ(math::float_to_half(5.960464477539063e-08f), 0x0001);  // smallest subnormal
  EXPECT_EQ(math::float_to_half(1.0f + 1.0f / 2048), 0x3c00);  // tie -> even
  EXPECT_EQ(math::half_to_float(0x0001), 5.960464477539063e-08f);
  EXPECT_EQ(math::half_to_float(0xc000), -2.0f);
  EXPECT_EQ(math::float_to_bfloat16(1.00390625f), 0x3f80);     // tie -> even
  EXPECT_EQ(math::bfloat16_to_float(0x3f81), 1.0078125f);
}

}  // namespace
}  // namespace twinrt
