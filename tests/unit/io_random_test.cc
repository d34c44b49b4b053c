// Seeded random tensors: the generator must produce the published algorithms' numbers
// (expected values from an independent Python transcription of splitmix64/xoshiro256**).
#include <gtest/gtest.h>

#include <set>

#include "io/random_tensor.h"
#include "kernels/math/half.h"

namespace twinrt::io {
namespace {

TEST(Rng, MatchesXoshiro256StarStarSeededBySplitmix64) {
  Rng rng(42);
  EXPECT_EQ(rng.next(), 0x15780b2e0c2ec716ull);
  EXPECT_EQ(rng.next(), 0x6104d9866d113a7eull);
  EXPECT_EQ(rng.next(), 0xae17533239e499a1ull);
  EXPECT_EQ(rng.next(), 0xecb8ad4703b360a1ull);
}

TEST(RandomTensor, FloatsAreTheGeneratorsTop24BitsScaled) {
  auto t = random_tensor(DataType::kFloat, {2, 2}, 42);
  ASSERT_TRUE(t.is_ok());
  const float* p = t->data<float>();
  EXPECT_EQ(p[0], static_cast<float>(0x15780b2e0c2ec716ull >> 40) / 16777216.0f);
  EXPECT_EQ(p[3], static_cast<float>(0xecb8ad4703b360a1ull >> 40) / 16777216.0f);
}

TEST(RandomTensor, IntegersAreInZeroToTen) {
  auto t = random_tensor(DataType::kInt64, {4}, 42);
  ASSERT_TRUE(t.is_ok());
  // ((x >> 32) * 10) >> 32 of the four outputs above.
  EXPECT_EQ(std::vector<int64_t>(t->data<int64_t>(), t->data<int64_t>() + 4), (std::vector<int64_t>{0, 3, 6, 9}));

  auto big = random_tensor(DataType::kUInt8, {1000}, 7);
  std::set<int> seen(big->data<uint8_t>(), big->data<uint8_t>() + 1000);
  EXPECT_EQ(seen, (std::set<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(RandomTensor, HalfPrecisionStaysBelowOne) {
  for (DataType dt : {DataType::kFloat16, DataType::kBFloat16}) {
    auto t = random_tensor(dt, {5000}, 3);
    ASSERT_TRUE(t.is_ok());
    const uint16_t* bits = static_cast<const uint16_t*>(t->raw());
    for (int i = 0; i < 5000; ++i) {
      float v = dt == DataType::kFloat16 ? math::half_to_float(bits[i]) : math::bfloat16_to_float(bits[i]);
      ASSERT_GE(v, 0.0f);
      ASSERT_LT(v, 1.0f);
    }
  }
}

TEST(RandomTensor, BoolsTakeBothValues) {
  auto t = random_tensor(DataType::kBool, {64}, 1);
  ASSERT_TRUE(t.is_ok());
  int trues = 0;
  for (int i = 0; i < 64; ++i) trues += t->data<bool>()[i];
  EXPECT_GT(trues, 0);
  EXPECT_LT(trues, 64);
}

TEST(RandomTensor, SeedsReproduceAndStreamsDiffer) {
  auto a = random_tensor(DataType::kDouble, {8}, derive_seed(5, 0));
  auto b = random_tensor(DataType::kDouble, {8}, derive_seed(5, 0));
  auto c = random_tensor(DataType::kDouble, {8}, derive_seed(5, 1));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(a->data<double>()[i], b->data<double>()[i]);
  EXPECT_NE(a->data<double>()[0], c->data<double>()[0]);
  EXPECT_NE(derive_seed(0, 0), derive_seed(0, 1));
}

TEST(RandomTensor, RefusesStringsAndBadShapes) {
  EXPECT_EQ(random_tensor(DataType::kString, {2}, 0).status().code(), StatusCode::kNotImplemented);
  EXPECT_FALSE(random_tensor(DataType::kFloat, {-1}, 0).is_ok());
}

}  // namespace
}  // namespace twinrt::io
