#include <gtest/gtest.h>

#include <limits>

#include "io/tensor_stats.h"
#include "kernels/math/half.h"

namespace twinrt::io {
namespace {

TEST(TensorStats, FloatsIgnoreNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto t = Tensor::from_vector<float>({5}, {1, nan, -2, 4, nan});
  auto s = tensor_stats(*t);
  ASSERT_TRUE(s.is_ok());
  EXPECT_EQ(s->count, 5);
  EXPECT_EQ(s->nan_count, 2);
  EXPECT_EQ(s->min, -2);
  EXPECT_EQ(s->max, 4);
  EXPECT_EQ(s->mean, 1);
  EXPECT_EQ(format_stats(*s), "min=-2 max=4 mean=1 nan=2");
}

TEST(TensorStats, IntegersBoolAndHalf) {
  auto i = tensor_stats(*Tensor::from_vector<int64_t>({2, 2}, {3, 5, 7, 9}));
  EXPECT_EQ(format_stats(*i), "min=3 max=9 mean=6");
  auto b = tensor_stats(*Tensor::from_vector<bool>({4}, {true, false, false, false}));
  EXPECT_EQ(format_stats(*b), "min=0 max=1 mean=0.25");
  auto h = tensor_stats(*Tensor::from_vector<Float16>({2}, {math::to_float16(0.5f), math::to_float16(-1.5f)}));
  EXPECT_EQ(format_stats(*h), "min=-1.5 max=0.5 mean=-0.5");
}

TEST(TensorStats, EmptyAllNaNAndUnsupported) {
  auto e = tensor_stats(*Tensor::create(DataType::kFloat, {0, 4}));
  EXPECT_EQ(format_stats(*e), "empty");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto n = tensor_stats(*Tensor::from_vector<double>({2}, {nan, nan}));
  EXPECT_EQ(format_stats(*n), "all NaN (2)");
  EXPECT_EQ(tensor_stats(*Tensor::create(DataType::kString, {1})).status().code(), StatusCode::kNotImplemented);
  const float inf = std::numeric_limits<float>::infinity();
  auto infs = tensor_stats(*Tensor::from_vector<float>({2}, {-inf, inf}));
  EXPECT_EQ(format_stats(*infs), "min=-inf max=inf mean=nan");
}

}  // namespace
}  // namespace twinrt::io
