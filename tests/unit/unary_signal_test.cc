// DFT, STFT, the window ops and MelWeightMatrix against hand-computed transforms and window values.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "tensor_op_harness.h"

namespace twinrt {
namespace {

using tensor_testing::TensorOpTest;
using tensor_testing::values;

void expect_near(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "element " << i;
}

std::vector<float> run_floats(TensorOpTest& test, std::vector<int64_t> want_shape) {
  auto out = test.run();
  EXPECT_TRUE(out.is_ok()) << out.status().message();
  if (!out.is_ok()) return {};
  EXPECT_EQ(out.value()[0].shape(), want_shape);
  return values<float>(out.value()[0]);
}

TEST(Dft, RealInputForwardInverseAndOnesided) {
  // fft([1, 2, 3, 4]) = [10, -2+2i, -2, -2-2i]
  auto forward = std::move(TensorOpTest("DFT", 17).input<float>({1, 4, 1}, {1, 2, 3, 4}));
  expect_near(run_floats(forward, {1, 4, 2}), {10, 0, -2, 2, -2, 0, -2, -2});
  auto onesided = std::move(TensorOpTest("DFT", 17).attr("onesided", 1).input<float>({1, 4, 1}, {1, 2, 3, 4}));
  expect_near(run_floats(onesided, {1, 3, 2}), {10, 0, -2, 2, -2, 0});
  auto inverse = std::move(TensorOpTest("DFT", 17).attr("inverse", 1).input<float>({1, 4, 2}, {10, 0, -2, 2, -2, 0, -2, -2}));
  expect_near(run_floats(inverse, {1, 4, 2}), {1, 0, 2, 0, 3, 0, 4, 0});
}

TEST(Dft, DftLengthPadsOrTruncates) {
  // fft([1, 2, 0, 0]) = [3, 1-2i, -1, 1+2i]; fft([1, 2]) = [3, -1]
  auto padded = std::move(TensorOpTest("DFT", 17).input<float>({1, 2, 1}, {1, 2}).input<int64_t>({}, {4}));
  expect_near(run_floats(padded, {1, 4, 2}), {3, 0, 1, -2, -1, 0, 1, 2});
  auto truncated = std::move(TensorOpTest("DFT", 17).input<float>({1, 4, 1}, {1, 2, 5, 7}).input<int32_t>({}, {2}));
  expect_near(run_floats(truncated, {1, 2, 2}), {3, 0, -1, 0});
}

TEST(Dft, TransformsAlongTheChosenAxis) {
  // [1, 2, 2, 1] signal dims; axis 2 transforms the rows [a, b]: (a + b, a - b).
  auto rows = std::move(TensorOpTest("DFT", 17).attr("axis", 2).input<float>({1, 2, 2, 1}, {1, 2, 3, 5}));
  expect_near(run_floats(rows, {1, 2, 2, 2}), {3, 0, -1, 0, 8, 0, -2, 0});
  auto columns = std::move(TensorOpTest("DFT", 17).attr("axis", 1).input<float>({1, 2, 2, 1}, {1, 2, 3, 5}));
  expect_near(run_floats(columns, {1, 2, 2, 2}), {4, 0, 7, 0, -2, 0, -3, 0});
}

TEST(Dft, RejectsBadShapesAndLengths) {
  EXPECT_FALSE(TensorOpTest("DFT", 17).input<float>({1, 4, 3}, std::vector<float>(12)).run().is_ok());
  EXPECT_FALSE(TensorOpTest("DFT", 17).attr("axis", 2).input<float>({1, 4, 1}, {1, 2, 3, 4}).run().is_ok());
  EXPECT_FALSE(
      TensorOpTest("DFT", 17).input<float>({1, 4, 1}, {1, 2, 3, 4}).input<int64_t>({}, {0}).run().is_ok());
}

TEST(Stft, FramesWithStepAndWindow) {
  // Frames of [0..7] with length 4, step 2: [0,1,2,3], [2,3,4,5], [4,5,6,7];
  // fft([a, a+1, a+2, a+3]) onesided = [4a + 6, -2+2i, -2].
  std::vector<float> signal = {0, 1, 2, 3, 4, 5, 6, 7};
  auto plain = std::move(TensorOpTest("STFT", 17)
                   .input<float>({1, 8, 1}, signal)
                   .input<int64_t>({}, {2})
                   .missing_input()
                   .input<int64_t>({}, {4}));
  expect_near(run_floats(plain, {1, 3, 3, 2}),
              {6, 0, -2, 2, -2, 0, 14, 0, -2, 2, -2, 0, 22, 0, -2, 2, -2, 0});
  // Window [1, 0, 0, 0] keeps each frame's first sample: a constant spectrum.
  auto windowed = std::move(TensorOpTest("STFT", 17)
                      .attr("onesided", 0)
                      .input<float>({1, 8, 1}, signal)
                      .input<int64_t>({}, {4})
                      .input<float>({4}, {1, 0, 0, 0}));
  expect_near(run_floats(windowed, {1, 2, 4, 2}), {0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 4, 0, 4, 0, 4, 0});
}

TEST(Stft, RejectsInconsistentFraming) {
  std::vector<float> signal(8, 1.0f);
  EXPECT_FALSE(TensorOpTest("STFT", 17).input<float>({1, 8, 1}, signal).input<int64_t>({}, {2}).run().is_ok());
  EXPECT_FALSE(TensorOpTest("STFT", 17)
                   .input<float>({1, 8, 1}, signal)
                   .input<int64_t>({}, {2})
                   .input<float>({3}, {1, 1, 1})
                   .input<int64_t>({}, {4})
                   .run()
                   .is_ok());
  EXPECT_FALSE(TensorOpTest("STFT", 17)
                   .input<float>({1, 8, 1}, signal)
                   .input<int64_t>({}, {0})
                   .missing_input()
                   .input<int64_t>({}, {4})
                   .run()
                   .is_ok());
}

TEST(Windows, PeriodicAndSymmetricValues) {
  auto hann = std::move(TensorOpTest("HannWindow", 17).input<int32_t>({}, {4}));
  expect_near(run_floats(hann, {4}), {0, 0.5f, 1, 0.5f});
  auto hann_sym = std::move(TensorOpTest("HannWindow", 17).attr("periodic", 0).input<int64_t>({}, {3}));
  expect_near(run_floats(hann_sym, {3}), {0, 1, 0});
  auto hamming = std::move(TensorOpTest("HammingWindow", 17).input<int64_t>({}, {4}));
  expect_near(run_floats(hamming, {4}), {4.0f / 46, 25.0f / 46, 1, 25.0f / 46});
  auto blackman = std::move(TensorOpTest("BlackmanWindow", 17).input<int64_t>({}, {4}));
  expect_near(run_floats(blackman, {4}), {0, 0.34f, 1, 0.34f});
  auto single = std::move(TensorOpTest("HannWindow", 17).attr("periodic", 0).input<int64_t>({}, {1}));
  expect_near(run_floats(single, {1}), {1});
}

TEST(Windows, OutputDatatypeAndBadSizes) {
  auto out = std::move(TensorOpTest("HannWindow", 17)
                 .attr("output_datatype", static_cast<int64_t>(DataType::kDouble))
                 .input<int64_t>({}, {2})
                 .run());
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<double>(out.value()[0]), (std::vector<double>{0.0, 1.0}));
  EXPECT_FALSE(TensorOpTest("HannWindow", 17).input<int64_t>({}, {-1}).run().is_ok());
  EXPECT_FALSE(TensorOpTest("HannWindow", 17)
                   .attr("output_datatype", static_cast<int64_t>(DataType::kString))
                   .input<int64_t>({}, {2})
                   .run()
                   .is_ok());
}

TEST(MelWeightMatrix, TrianglesPeakAtOne) {
  // 2 bands over dft_length 8 (5 bins), sample rate 8000, 0..4000 Hz: the 4 points
  // (a quarter of the mel range apart) fall on bins 0, 0, 1, 2, so band 0 peaks at bin 0
  // and band 1 at bin 1.
  auto mel = std::move(TensorOpTest("MelWeightMatrix", 17)
                 .input<int64_t>({}, {2})
                 .input<int64_t>({}, {8})
                 .input<int64_t>({}, {8000})
                 .input<float>({}, {0.0f})
                 .input<float>({}, {4000.0f}));
  auto w = run_floats(mel, {5, 2});
  ASSERT_EQ(w.size(), 10u);
  EXPECT_EQ(w, (std::vector<float>{1, 0, 0, 1, 0, 0, 0, 0, 0, 0}));
  for (float v : w) EXPECT_TRUE(v >= 0 && v <= 1);
  EXPECT_FALSE(TensorOpTest("MelWeightMatrix", 17)
                   .input<int64_t>({}, {2})
                   .input<int64_t>({}, {8})
                   .input<int64_t>({}, {8000})
                   .input<float>({}, {0.0f})
                   .input<float>({}, {40000.0f})
                   .run()
                   .is_ok());
}

}  // namespace
}  // namespace twinrt
