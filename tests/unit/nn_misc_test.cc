#include "nn_op_harness.h"

#include <limits>

namespace twinrt::testing {
namespace {

Result<std::vector<Tensor>> einsum(const char* eq, std::vector<std::pair<std::vector<int64_t>, std::vector<float>>> ins,
                                   Mode mode = Mode::kDefault) {
  OpTest t("Einsum", 12);
  t.attr("equation", eq);
  for (auto& [shape, v] : ins) t.input<float>(shape, v);
  return t.run(mode);
}

TEST(NnEinsum, ExplicitAndImplicitForms) {
  const std::vector<float> a = {1, 2, 3, 4}, b = {5, 6, 7, 8};
  for (Mode mode : kBothModes) {
    auto mm = einsum("ij,jk->ik", {{{2, 2}, a}, {{2, 2}, b}}, mode);
    ASSERT_TRUE(mm.is_ok()) << mm.status().message();
    expect_close(mm->at(0), {2, 2}, {19, 22, 43, 50});
    auto implicit = einsum("ij,jk", {{{2, 2}, a}, {{2, 2}, b}}, mode);
    ASSERT_TRUE(implicit.is_ok()) << implicit.status().message();
    expect_close(implicit->at(0), {2, 2}, {19, 22, 43, 50});
  }
  auto diag = einsum("ii->i", {{{2, 2}, a}});
  ASSERT_TRUE(diag.is_ok()) << diag.status().message();
  expect_close(diag->at(0), {2}, {1, 4});
  auto total = einsum("ij->", {{{2, 2}, a}});
  ASSERT_TRUE(total.is_ok()) << total.status().message();
  expect_close(total->at(0), {}, {10});
  auto inner = einsum("i,i", {{{2}, {1, 2}}, {{2}, {3, 4}}});
  ASSERT_TRUE(inner.is_ok()) << inner.status().message();
  expect_close(inner->at(0), {}, {11});
  // Implicit output sorts letters: "ba" keeps b then a -> output "ab", a transpose.
  auto sorted = einsum("ba", {{{2, 3}, {1, 2, 3, 4, 5, 6}}});
  ASSERT_TRUE(sorted.is_ok()) << sorted.status().message();
  expect_close(sorted->at(0), {3, 2}, {1, 4, 2, 5, 3, 6});
}

TEST(NnEinsum, EllipsisBroadcastsAndErrors) {
  // "...ij->...ji" over a batch of two 1x2 matrices.
  auto t = einsum("...ij->...ji", {{{2, 1, 2}, {1, 2, 3, 4}}});
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  expect_close(t->at(0), {2, 2, 1}, {1, 2, 3, 4});
  // A batch of 1 broadcasts against a batch of 2.
  auto b = einsum("...i,...i->...", {{{1, 2}, {1, 1}}, {{2, 2}, {1, 2, 3, 4}}});
  ASSERT_TRUE(b.is_ok()) << b.status().message();
  expect_close(b->at(0), {2}, {3, 7});
  EXPECT_FALSE(einsum("ij,jk->ik", {{{2, 2}, {1, 2, 3, 4}}, {{3, 1}, {1, 2, 3}}}).is_ok());
  EXPECT_FALSE(einsum("i1->i", {{{2, 2}, {1, 2, 3, 4}}}).is_ok());
  EXPECT_FALSE(einsum("ij->k", {{{2, 2}, {1, 2, 3, 4}}}).is_ok());
  auto ints = OpTest("Einsum", 12).attr("equation", "i,i->").input<int32_t>({2}, {3, 4}).input<int32_t>({2}, {5, -6}).run(Mode::kDefault);
  ASSERT_TRUE(ints.is_ok()) << ints.status().message();
  EXPECT_EQ(values_of<int32_t>(ints->at(0)), (std::vector<int32_t>{-9}));
}

TEST(NnDet, SmallMatricesAndBatches) {
  for (Mode mode : kBothModes) {
    auto r = OpTest("Det", 11).input<float>({2, 3, 3}, {2, 0, 0, 0, 3, 0, 1, 1, 4, 0, 1, 0, 1, 0, 0, 0, 0, 1}).run(mode);
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    expect_close(r->at(0), {2}, {24, -1});
  }
  auto two = OpTest("Det", 11).input<double>({2, 2}, {1, 2, 3, 4}).run(Mode::kDefault);
  ASSERT_TRUE(two.is_ok());
  EXPECT_NEAR(values_of<double>(two->at(0))[0], -2.0, 1e-12);
  EXPECT_FALSE(OpTest("Det", 11).input<float>({2, 3}, {1, 2, 3, 4, 5, 6}).run(Mode::kDefault).is_ok());
}

Result<std::vector<Tensor>> grid_sample(const char* mode, const char* padding, int align, std::vector<float> grid) {
  const int64_t points = static_cast<int64_t>(grid.size() / 2);
  return OpTest("GridSample", 16).attr("mode", mode).attr("padding_mode", padding).attr("align_corners", align)
      .input<float>({1, 1, 2, 2}, {1, 2, 3, 4}).input<float>({1, 1, points, 2}, grid).run(Mode::kReference);
}

TEST(NnGridSample, ModesAndPadding) {
  auto corners = grid_sample("bilinear", "zeros", 1, {-1, -1, 1, 1, 0, 0, 1, -1});
  ASSERT_TRUE(corners.is_ok()) << corners.status().message();
  expect_close(corners->at(0), {1, 1, 1, 4}, {1, 4, 2.5f, 2});
  // Without align_corners, (-1, -1) is the outer corner of pixel (0, 0): a quarter of it.
  auto zeros = grid_sample("bilinear", "zeros", 0, {-1, -1});
  ASSERT_TRUE(zeros.is_ok());
  expect_close(zeros->at(0), {1, 1, 1, 1}, {0.25f});
  auto border = grid_sample("bilinear", "border", 0, {-1, -1});
  ASSERT_TRUE(border.is_ok());
  expect_close(border->at(0), {1, 1, 1, 1}, {1});
  // Nearest rounds half to even: the centre (0.5, 0.5) picks pixel (0, 0).
  auto nearest = grid_sample("nearest", "zeros", 1, {0, 0, 1, 1});
  ASSERT_TRUE(nearest.is_ok());
  expect_close(nearest->at(0), {1, 1, 1, 2}, {1, 4});
  EXPECT_FALSE(grid_sample("cubic", "zeros", 0, {0, 0}).is_ok());
}

TEST(NnRoi, RoiAlignAndMaxRoiPool) {
  // One half_pixel sample at the centre of the 2x2 image.
  auto align = OpTest("RoiAlign", 16).attr("sampling_ratio", 1).input<float>({1, 1, 2, 2}, {1, 2, 3, 4})
                   .input<float>({1, 4}, {0, 0, 2, 2}).input<int64_t>({1}, {0}).run(Mode::kDefault);
  ASSERT_TRUE(align.is_ok()) << align.status().message();
  expect_close(align->at(0), {1, 1, 1, 1}, {2.5f});
  auto bad_batch = OpTest("RoiAlign", 16).input<float>({1, 1, 2, 2}, {1, 2, 3, 4}).input<float>({1, 4}, {0, 0, 2, 2})
                       .input<int64_t>({1}, {3}).run(Mode::kDefault);
  EXPECT_FALSE(bad_batch.is_ok());
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  auto pool = OpTest("MaxRoiPool", 1).attr("pooled_shape", std::vector<int64_t>{2, 2}).input<float>({1, 1, 3, 3}, x)
                  .input<float>({1, 5}, {0, 0, 0, 2, 2}).run(Mode::kDefault);
  ASSERT_TRUE(pool.is_ok()) << pool.status().message();
  expect_close(pool->at(0), {1, 1, 2, 2}, {5, 6, 8, 9});
}

TEST(NnHostileInput, BadValuesGiveErrorsNotCrashes) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(OpTest("RoiAlign", 16).input<float>({1, 1, 2, 2}, {1, 2, 3, 4}).input<float>({1, 4}, {0, nan, 2, 2})
                   .input<int64_t>({1}, {0}).run(Mode::kDefault).is_ok());
  EXPECT_FALSE(OpTest("RoiAlign", 16).input<float>({1, 1, 2, 2}, {1, 2, 3, 4}).input<float>({1, 4}, {0, 0, 1e30f, 1e30f})
                   .input<int64_t>({1}, {0}).run(Mode::kDefault).is_ok());
  EXPECT_FALSE(OpTest("MaxRoiPool", 1).attr("pooled_shape", std::vector<int64_t>{1, 1}).input<float>({1, 1, 2, 2}, {1, 2, 3, 4})
                   .input<float>({1, 5}, {nan, 0, 0, 1, 1}).run(Mode::kDefault).is_ok());
  EXPECT_FALSE(OpTest("MaxRoiPool", 1).attr("pooled_shape", std::vector<int64_t>{1, 1}).input<float>({1, 1, 2, 2}, {1, 2, 3, 4})
                   .input<float>({1, 5}, {0, 0, 0, 1e30f, 1}).run(Mode::kDefault).is_ok());
  // Non-finite or far-away grid points read padding.
  auto g = OpTest("GridSample", 16).attr("mode", "bicubic").input<float>({1, 1, 2, 2}, {1, 2, 3, 4})
               .input<float>({1, 1, 2, 2}, {nan, 0, 1e30f, -1e30f}).run(Mode::kDefault);
  ASSERT_TRUE(g.is_ok()) << g.status().message();
  expect_close(g->at(0), {1, 1, 1, 2}, {0, 0});
  EXPECT_FALSE(OpTest("Conv", 11).attr("strides", std::vector<int64_t>{int64_t{1} << 40}).input<float>({1, 1, 3}, {1, 2, 3})
                   .input<float>({1, 1, 1}, {1}).run(Mode::kDefault).is_ok());
  EXPECT_FALSE(OpTest("DepthToSpace", 13).attr("blocksize", int64_t{1} << 40).input<float>({1, 4, 1, 1}, {1, 2, 3, 4})
                   .run(Mode::kDefault).is_ok());
}

}  // namespace
}  // namespace twinrt::testing
