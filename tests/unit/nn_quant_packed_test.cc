// MatMulInteger, QLinearMatMul, ConvInteger and QLinearConv with constant weights take the
// packed integer kernels (kernels/gemm/i8_gemm.h); with the same weights as a runtime
// input they take the qgemm_ref path. Both must give the same bits on every ISA tier and
// thread count.
#include <algorithm>
#include <random>

#include "kernels/cpu/isa.h"
#include "nn_op_harness.h"

namespace twinrt::testing {
namespace {

template <class T>
std::vector<T> random_values(size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> dist(std::is_same_v<T, uint8_t> ? 0 : -128, std::is_same_v<T, uint8_t> ? 255 : 127);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(dist(rng));
  return v;
}

// Runs `build(weights_constant)` through the reference path once, then the packed path
// on every tier at 1 and 2 threads, and compares the raw output bytes.
template <class Build>
void expect_packed_matches_reference(Build&& build, const std::string& what) {
  auto want = build(false).run(Mode::kDefault);
  ASSERT_TRUE(want.is_ok()) << what << ": " << want.status().message();
  for (Isa isa : kernels::supported_isas())
    for (int threads : {1, 2}) {
      auto got = build(true).isa(isa).run(Mode::kDefault, threads);
      ASSERT_TRUE(got.is_ok()) << what << ": " << got.status().message();
      const Tensor& a = want->at(0);
      const Tensor& b = got->at(0);
      ASSERT_EQ(a.shape(), b.shape()) << what;
      ASSERT_EQ(a.dtype(), b.dtype()) << what;
      const auto* pa = static_cast<const uint8_t*>(a.raw());
      const auto* pb = static_cast<const uint8_t*>(b.raw());
      EXPECT_TRUE(std::equal(pa, pa + a.nbytes(), pb)) << what << " isa " << isa_name(isa) << " threads " << threads;
    }
}

template <class TA, class TB, class TY>
void check_matmul(const std::vector<int64_t>& a_shape, int64_t k, int64_t n, bool per_column, std::mt19937& rng) {
  int64_t a_numel = 1;
  for (int64_t d : a_shape) a_numel *= d;
  const auto a = random_values<TA>(static_cast<size_t>(a_numel), rng);
  const auto b = random_values<TB>(static_cast<size_t>(k * n), rng);
  const auto za = random_values<TA>(1, rng);
  const auto zb = random_values<TB>(per_column ? static_cast<size_t>(n) : 1, rng);
  const std::vector<int64_t> zb_shape = per_column ? std::vector<int64_t>{n} : std::vector<int64_t>{};
  std::vector<float> sb(zb.size());
  for (size_t j = 0; j < sb.size(); ++j) sb[j] = 0.001f * static_cast<float>(j + 3);
  const std::string what = "matmul k=" + std::to_string(k) + " n=" + std::to_string(n);
  expect_packed_matches_reference([&](bool constant) {
    return OpTest("MatMulInteger", 10).template input<TA>(a_shape, a).template input<TB>({k, n}, b, constant).template input<TA>({}, za)
        .template input<TB>(zb_shape, zb);
  }, "MatMulInteger " + what);
  expect_packed_matches_reference([&](bool constant) {
    return OpTest("QLinearMatMul", 10).template input<TA>(a_shape, a).template input<float>({}, {0.02f}).template input<TA>({}, za)
        .template input<TB>({k, n}, b, constant).template input<float>(zb_shape, sb).template input<TB>(zb_shape, zb)
        .template input<float>({}, {0.37f}).template input<TY>({}, {TY(3)});
  }, "QLinearMatMul " + what);
}

TEST(NnQuantPacked, MatMulMatchesReference) {
  std::mt19937 rng(11);
  check_matmul<uint8_t, int8_t, uint8_t>({2, 7, 67}, 67, 45, true, rng);
  check_matmul<uint8_t, uint8_t, int8_t>({13, 5}, 5, 33, false, rng);
  check_matmul<int8_t, int8_t, int8_t>({67}, 67, 1, false, rng);
  check_matmul<int8_t, uint8_t, uint8_t>({3, 100, 64}, 64, 130, true, rng);
  check_matmul<uint8_t, int8_t, uint8_t>({4, 0}, 0, 9, false, rng);  // k = 0: QLinearMatMul gives y_zero_point
}

template <class TX, class TW, class TY>
void check_conv(int64_t c, int64_t m, int64_t group, std::vector<int64_t> kernel, std::vector<int64_t> image,
                std::vector<int64_t> pads, std::vector<int64_t> strides, bool per_channel, std::mt19937& rng,
                bool symmetric = false) {
  std::vector<int64_t> x_shape = {2, c}, w_shape = {m, c / group};
  x_shape.insert(x_shape.end(), image.begin(), image.end());
  w_shape.insert(w_shape.end(), kernel.begin(), kernel.end());
  int64_t xn = 1, wn = 1;
  for (int64_t d : x_shape) xn *= d;
  for (int64_t d : w_shape) wn *= d;
  const auto x = random_values<TX>(static_cast<size_t>(xn), rng);
  const auto w = random_values<TW>(static_cast<size_t>(wn), rng);
  const auto xz = random_values<TX>(1, rng);
  auto wz = random_values<TW>(per_channel ? static_cast<size_t>(m) : 1, rng);
  if (symmetric) std::fill(wz.begin(), wz.end(), TW(0));  // the activation panels are packed without sums
  const std::vector<int64_t> wz_shape = per_channel ? std::vector<int64_t>{m} : std::vector<int64_t>{};
  std::vector<float> ws(wz.size());
  for (size_t j = 0; j < ws.size(); ++j) ws[j] = 0.0005f * static_cast<float>(j + 1);
  std::vector<int32_t> bias(static_cast<size_t>(m));
  for (size_t j = 0; j < bias.size(); ++j) bias[j] = static_cast<int32_t>(j * 977) - 3000;
  const std::string what = "conv c=" + std::to_string(c) + " m=" + std::to_string(m) + " group=" + std::to_string(group);
  expect_packed_matches_reference([&](bool constant) {
    return OpTest("ConvInteger", 10).attr("pads", pads).attr("strides", strides).attr("group", group)
        .template input<TX>(x_shape, x).template input<TW>(w_shape, w, constant).template input<TX>({}, xz).template input<TW>(wz_shape, wz);
  }, "ConvInteger " + what);
  expect_packed_matches_reference([&](bool constant) {
    return OpTest("QLinearConv", 10).attr("pads", pads).attr("strides", strides).attr("group", group)
        .template input<TX>(x_shape, x).template input<float>({}, {0.03f}).template input<TX>({}, xz).template input<TW>(w_shape, w, constant)
        .template input<float>(wz_shape, ws).template input<TW>(wz_shape, wz).template input<float>({}, {0.11f}).template input<TY>({}, {TY(5)})
        .template input<int32_t>({m}, bias);
  }, "QLinearConv " + what);
}

TEST(NnQuantPacked, ConvMatchesReference) {
  std::mt19937 rng(5);
  check_conv<uint8_t, int8_t, uint8_t>(5, 13, 1, {3, 3}, {9, 11}, {1, 1, 1, 1}, {2, 1}, true, rng);
  check_conv<uint8_t, uint8_t, int8_t>(4, 8, 2, {3, 1}, {6, 5}, {0, 1, 2, 0}, {1, 1}, false, rng);
  check_conv<int8_t, int8_t, uint8_t>(3, 37, 1, {1, 1}, {20, 21}, {0, 0, 0, 0}, {1, 1}, true, rng);  // pointwise, > 256 positions
  check_conv<uint8_t, int8_t, int8_t>(6, 6, 6, {3, 3}, {7, 7}, {1, 1, 1, 1}, {1, 1}, true, rng);    // depthwise
  // Symmetric weights, and more output channels than one block of int32 products holds.
  check_conv<uint8_t, int8_t, uint8_t>(5, 13, 1, {3, 3}, {9, 11}, {1, 1, 1, 1}, {1, 1}, true, rng, true);
  check_conv<uint8_t, int8_t, uint8_t>(4, 130, 1, {1, 1}, {20, 21}, {0, 0, 0, 0}, {1, 1}, false, rng, true);
  check_conv<uint8_t, int8_t, uint8_t>(3, 7, 1, {5}, {40}, {2, 2}, {3}, false, rng);                 // 1-D
}

}  // namespace
}  // namespace twinrt::testing
