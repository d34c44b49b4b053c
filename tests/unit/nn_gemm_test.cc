#include "nn_op_harness.h"

#include "kernels/math/half.h"

namespace twinrt::testing {
namespace {

const std::vector<float> kA = {1, 2, 3, 4};  // [[1,2],[3,4]]
const std::vector<float> kB = {5, 6, 7, 8};  // [[5,6],[7,8]]; A·B = [[19,22],[43,50]]

TEST(NnGemm, AlphaBetaAndRowBias) {
  for (Mode mode : kBothModes) {
    auto r = OpTest("Gemm", 13).attr("alpha", 0.5f).attr("beta", 2.0f)
                 .input<float>({2, 2}, kA).input<float>({2, 2}, kB).input<float>({2}, {1, 2}).run(mode);
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    expect_close(r->at(0), {2, 2}, {11.5f, 15, 23.5f, 29});
  }
}

TEST(NnGemm, TransposesAndColumnBias) {
  auto ta = OpTest("Gemm", 13).attr("transA", 1).input<float>({2, 2}, kA).input<float>({2, 2}, kB).run(Mode::kDefault);
  ASSERT_TRUE(ta.is_ok()) << ta.status().message();
  expect_close(ta->at(0), {2, 2}, {26, 30, 38, 44});
  for (bool constant_b : {false, true}) {
    auto tb = OpTest("Gemm", 13).attr("transB", 1).input<float>({2, 2}, kA).input<float>({2, 2}, kB, constant_b)
                  .input<float>({2, 1}, {10, 20}).run(Mode::kReference);
    ASSERT_TRUE(tb.is_ok()) << tb.status().message();
    expect_close(tb->at(0), {2, 2}, {27, 33, 59, 73});
  }
}

TEST(NnGemm, RectangularNoBiasInferShape) {
  OpTest t("Gemm", 11);
  t.input<float>({1, 3}, {1, 2, 3}).input<float>({3, 2}, {1, 0, 0, 1, 1, 1});
  auto r = t.run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  expect_close(r->at(0), {1, 2}, {4, 5});
  ASSERT_TRUE(t.inferred()[0].shape.has_value());
  EXPECT_EQ(ir::static_dims(*t.inferred()[0].shape), (std::vector<int64_t>{1, 2}));
}

TEST(NnGemm, Float16ComputesThroughFloat) {
  std::vector<Float16> a, b;
  for (float v : kA) a.push_back(math::to_float16(v));
  for (float v : kB) b.push_back(math::to_float16(v));
  auto r = OpTest("Gemm", 13).input<Float16>({2, 2}, a).input<Float16>({2, 2}, b, true).run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  auto y = values_of<Float16>(r->at(0));
  ASSERT_EQ(y.size(), 4u);
  EXPECT_EQ(math::to_float(y[0]), 19.0f);
  EXPECT_EQ(math::to_float(y[3]), 50.0f);
}

TEST(NnGemm, Int32) {
  auto r = OpTest("Gemm", 13).input<int32_t>({2, 2}, {1, 2, 3, 4}).input<int32_t>({2, 2}, {5, 6, 7, 8})
               .input<int32_t>({1}, {-1}).run(Mode::kReference);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(values_of<int32_t>(r->at(0)), (std::vector<int32_t>{18, 21, 42, 49}));
}

TEST(NnGemm, BadShapesAreErrors) {
  auto r = OpTest("Gemm", 13).input<float>({2, 2}, kA).input<float>({2, 2}, kB).input<float>({3}, {1, 2, 3}).run(Mode::kDefault);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("does not broadcast"), std::string::npos) << r.status().message();
  auto k = OpTest("Gemm", 13).input<float>({2, 3}, {1, 2, 3, 4, 5, 6}).input<float>({2, 2}, kB).run(Mode::kDefault);
  EXPECT_FALSE(k.is_ok());
  // opset 6 without `broadcast`: C must already be M x N.
  auto old = OpTest("Gemm", 6).input<float>({2, 2}, kA).input<float>({2, 2}, kB).input<float>({2}, {1, 2}).run(Mode::kDefault);
  EXPECT_FALSE(old.is_ok());
  auto old_ok = OpTest("Gemm", 6).attr("broadcast", 1).input<float>({2, 2}, kA).input<float>({2, 2}, kB)
                    .input<float>({2}, {1, 2}).run(Mode::kDefault);
  EXPECT_TRUE(old_ok.is_ok()) << old_ok.status().message();
  auto missing_c = OpTest("Gemm", 6).input<float>({2, 2}, kA).input<float>({2, 2}, kB).run(Mode::kDefault);
  EXPECT_FALSE(missing_c.is_ok());
}

TEST(NnMatMul, OneDimensionalOperands) {
  auto mv = OpTest("MatMul", 13).input<float>({2, 3}, {1, 2, 3, 4, 5, 6}).input<float>({3}, {1, 1, 1}).run(Mode::kDefault);
  ASSERT_TRUE(mv.is_ok()) << mv.status().message();
  expect_close(mv->at(0), {2}, {6, 15});
  auto vm = OpTest("MatMul", 13).input<float>({3}, {1, 2, 3}).input<float>({3, 2}, {1, 2, 3, 4, 5, 6}).run(Mode::kReference);
  ASSERT_TRUE(vm.is_ok()) << vm.status().message();
  expect_close(vm->at(0), {2}, {22, 28});
  auto vv = OpTest("MatMul", 13).input<float>({3}, {1, 2, 3}).input<float>({3}, {1, 2, 3}).run(Mode::kReference);
  ASSERT_TRUE(vv.is_ok()) << vv.status().message();
  expect_close(vv->at(0), {}, {14});
}

TEST(NnMatMul, BatchesBroadcast) {
  auto r = OpTest("MatMul", 13).input<float>({2, 1, 2}, {1, 2, 3, 4}).input<float>({2, 2}, {1, 2, 3, 4}).run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  expect_close(r->at(0), {2, 1, 2}, {7, 10, 15, 22});
  auto s = OpTest("MatMul", 13).input<double>({1, 2, 2}, {1, 0, 0, 1}).input<double>({3, 2, 1}, {1, 2, 3, 4, 5, 6}).run(Mode::kDefault);
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  EXPECT_EQ(values_of<double>(s->at(0)), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(s->at(0).shape(), (std::vector<int64_t>{3, 2, 1}));
  auto bad = OpTest("MatMul", 13).input<float>({2, 2, 2}, std::vector<float>(8, 1)).input<float>({3, 2, 2}, std::vector<float>(12, 1)).run(Mode::kDefault);
  EXPECT_FALSE(bad.is_ok());
}

TEST(NnMatMul, ThreadCountDoesNotChangeBits) {
  const int64_t m = 37, k = 53, n = 71;
  std::vector<float> a(m * k), b(k * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = 1.0f / float(i + 3);
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(i % 17) * 0.37f - 2.1f;
  for (Mode mode : kBothModes) {
    auto one = OpTest("MatMul", 13).input<float>({m, k}, a).input<float>({k, n}, b).run(mode, 1);
    auto two = OpTest("MatMul", 13).input<float>({m, k}, a).input<float>({k, n}, b).run(mode, 2);
    ASSERT_TRUE(one.is_ok() && two.is_ok());
    EXPECT_EQ(values_of<float>(one->at(0)), values_of<float>(two->at(0)));
  }
}

TEST(NnMatMul, HalfWithConstantB) {
  std::vector<Float16> a = {math::to_float16(1), math::to_float16(2)}, b = {math::to_float16(3), math::to_float16(4)};
  for (bool constant : {false, true}) {
    auto r = OpTest("MatMul", 13).input<Float16>({1, 2}, a).input<Float16>({2, 1}, b, constant).run(Mode::kReference);
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    auto y = values_of<Float16>(r->at(0));
    ASSERT_EQ(y.size(), 1u);
    EXPECT_EQ(math::to_float(y[0]), 11.0f);
  }
}

TEST(NnMatMul, Int64) {
  auto r = OpTest("MatMul", 13).input<int64_t>({1, 2}, {3, -4}).input<int64_t>({2, 1}, {5, 6}).run(Mode::kDefault);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(values_of<int64_t>(r->at(0)), (std::vector<int64_t>{-9}));
}

}  // namespace
}  // namespace twinrt::testing
