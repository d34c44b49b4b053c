// The preprocessing spec (parse, JSON round trip, errors) and the image pipeline, checked
// against pixel values computed by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "inputs_test_files.h"
#include "kernels/math/half.h"
#include "parity/image.h"
#include "parity/preprocess.h"

namespace twinrt::parity {
namespace {

using testing::fresh_dir;
using testing::write_png;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::vector<uint8_t> grey_to_rgb(const std::vector<uint8_t>& grey) {
  std::vector<uint8_t> rgb;
  for (uint8_t v : grey) rgb.insert(rgb.end(), {v, v, v});
  return rgb;
}

std::vector<int> red_channel(const RgbImage& image) {
  std::vector<int> r;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) r.push_back(image.at(x, y, 0));
  return r;
}

TEST(PreprocessSpec, ParsesTheCompactForm) {
  auto spec = parse_preprocess("short=256,crop=224x200,bgr,scale=0.5,mean=0.485:0.456:0.406,std=2,nhwc,float16");
  ASSERT_TRUE(spec.is_ok()) << spec.status().message();
  EXPECT_FALSE(spec->resize);
  EXPECT_EQ(spec->resize_short, 256);
  EXPECT_EQ(spec->center_crop, (std::pair<int, int>{224, 200}));
  EXPECT_TRUE(spec->bgr);
  EXPECT_EQ(spec->scale, 0.5);
  EXPECT_EQ(spec->mean, (std::vector<double>{0.485, 0.456, 0.406}));
  EXPECT_EQ(spec->std, (std::vector<double>{2, 2, 2}));
  EXPECT_TRUE(spec->nhwc);
  EXPECT_EQ(spec->dtype, DataType::kFloat16);

  auto keyed = parse_preprocess("resize=32x16,channels=rgb,layout=nchw,dtype=uint8");
  ASSERT_TRUE(keyed.is_ok()) << keyed.status().message();
  EXPECT_EQ(keyed->resize, (std::pair<int, int>{32, 16}));
  EXPECT_FALSE(keyed->bgr);
  EXPECT_FALSE(keyed->nhwc);
  EXPECT_EQ(keyed->dtype, DataType::kUInt8);
  EXPECT_EQ(keyed->scale, 1.0 / 255.0);  // the default
}

TEST(PreprocessSpec, JsonFileHasTheSameKeysAndRoundTrips) {
  const std::string dir = fresh_dir();
  const std::string path = testing::write_text(
      dir + "/pre.json", R"({"resize": [8, 6], "crop": "4x4", "channels": "bgr", "scale": 1,
                             "mean": [1, 2, 3], "std": 0.5, "layout": "nhwc", "dtype": "float32"})");
  auto spec = parse_preprocess(path);
  ASSERT_TRUE(spec.is_ok()) << spec.status().message();
  EXPECT_EQ(spec->resize, (std::pair<int, int>{8, 6}));
  EXPECT_EQ(spec->center_crop, (std::pair<int, int>{4, 4}));
  EXPECT_TRUE(spec->bgr);
  EXPECT_EQ(spec->scale, 1.0);
  EXPECT_EQ(spec->mean, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(spec->std, (std::vector<double>{0.5, 0.5, 0.5}));
  EXPECT_TRUE(spec->nhwc);

  const nlohmann::json j = to_json(*spec);
  EXPECT_EQ(j["resize"], nlohmann::json({8, 6}));
  EXPECT_EQ(j["channels"], "bgr");
  EXPECT_EQ(j["layout"], "nhwc");
  EXPECT_EQ(j["dtype"], "float32");
  EXPECT_FALSE(j.contains("short"));
  auto again = parse_preprocess(testing::write_text(dir + "/again.json", j.dump()));
  ASSERT_TRUE(again.is_ok()) << again.status().message();
  EXPECT_EQ(to_json(*again), j);
}

TEST(PreprocessSpec, ErrorsNameTheBadKey) {
  const std::pair<const char*, const char*> cases[] = {
      {"resize=256x256,frob=1", "unknown key 'frob'"},
      {"resize=256", "key 'resize' expects WIDTHxHEIGHT"},
      {"crop=0x10", "key 'crop' expects a whole number of pixels"},
      {"short=abc", "key 'short' expects a whole number"},
      {"scale=x", "key 'scale' expects a finite number"},
      {"mean=1:2", "key 'mean' expects one value or three"},
      {"std=1:0:1", "key 'std' expects non-zero values"},
      {"channels=rgba", "key 'channels' expects rgb or bgr"},
      {"dtype=int8", "key 'dtype' expects float32, float16 or uint8"},
      {"rgb,bgr", "key 'channels' is given twice"},
      {"resize=4x4,short=4", "either 'resize' or 'short'"},
      {"", "empty spec"},
  };
  for (const auto& [text, expected] : cases) {
    auto spec = parse_preprocess(text);
    ASSERT_FALSE(spec.is_ok()) << text;
    EXPECT_TRUE(contains(spec.status().message(), expected)) << text << ": " << spec.status().message();
  }
  const std::string dir = fresh_dir();
  auto not_json = parse_preprocess(testing::write_text(dir + "/bad.json", "{resize"));
  EXPECT_TRUE(contains(not_json.status().message(), "bad.json' is not a JSON object"));
  auto bad_key = parse_preprocess(testing::write_text(dir + "/key.json", R"({"mean": [0, 0, 0], "size": 3})"));
  EXPECT_TRUE(contains(bad_key.status().message(), "key.json"));
  EXPECT_TRUE(contains(bad_key.status().message(), "unknown key 'size'"));
  auto bad_type = parse_preprocess(testing::write_text(dir + "/type.json", R"({"mean": {"r": 1}})"));
  EXPECT_TRUE(contains(bad_type.status().message(), "key 'mean' expects"));
  auto missing = parse_preprocess(dir + "/absent.json");
  EXPECT_TRUE(contains(missing.status().message(), "absent.json"));
}

TEST(Image, DecodesPngAndGreyBecomesRgb) {
  const std::string dir = fresh_dir();
  auto rgb = decode_image(write_png(dir + "/rgb.png", 2, 1, 3, {10, 20, 30, 40, 50, 60}));
  ASSERT_TRUE(rgb.is_ok()) << rgb.status().message();
  EXPECT_EQ(rgb->width, 2);
  EXPECT_EQ(rgb->height, 1);
  EXPECT_EQ(rgb->pixels, (std::vector<uint8_t>{10, 20, 30, 40, 50, 60}));
  auto grey = decode_image(write_png(dir + "/grey.png", 1, 2, 1, {7, 200}));
  ASSERT_TRUE(grey.is_ok());
  EXPECT_EQ(grey->pixels, (std::vector<uint8_t>{7, 7, 7, 200, 200, 200}));
  auto rgba = decode_image(write_png(dir + "/rgba.png", 1, 1, 4, {1, 2, 3, 0}));
  ASSERT_TRUE(rgba.is_ok());
  EXPECT_EQ(rgba->pixels, (std::vector<uint8_t>{1, 2, 3}));  // alpha dropped
}

TEST(Image, DecodesJpeg) {
  const std::string dir = fresh_dir();
  // A flat colour survives JPEG within a few levels.
  std::vector<uint8_t> flat;
  for (int i = 0; i < 16 * 8; ++i) flat.insert(flat.end(), {200, 100, 50});
  auto image = decode_image(testing::write_jpeg(dir + "/flat.jpg", 16, 8, flat));
  ASSERT_TRUE(image.is_ok()) << image.status().message();
  EXPECT_EQ(image->width, 16);
  EXPECT_EQ(image->height, 8);
  EXPECT_NEAR(image->at(5, 5, 0), 200, 3);
  EXPECT_NEAR(image->at(5, 5, 1), 100, 3);
  EXPECT_NEAR(image->at(5, 5, 2), 50, 3);
}

TEST(Image, ErrorsNameTheFileAndStbReason) {
  const std::string dir = fresh_dir();
  auto text = decode_image(testing::write_text(dir + "/notes.png", "this is not a picture"));
  ASSERT_FALSE(text.is_ok());
  EXPECT_TRUE(contains(text.status().message(), "notes.png")) << text.status().message();
  EXPECT_TRUE(contains(text.status().message(), "stb_image: ")) << text.status().message();
  auto missing = decode_image(dir + "/absent.png");
  EXPECT_TRUE(contains(missing.status().message(), "absent.png"));
}

TEST(Image, BilinearResizeUsesHalfPixelCenters) {
  // 2x1 -> 4x1: sources -0.25 (clamped to 0), 0.25, 0.75, 1.25 (clamped to 1).
  RgbImage row{2, 1, grey_to_rgb({0, 101})};
  EXPECT_EQ(red_channel(resize_bilinear(row, 4, 1)), (std::vector<int>{0, 25, 76, 101}));  // 25.25, 75.75
  // 2x2 -> 3x3: sources 0 (clamped), 0.5, 1 (clamped) on both axes.
  RgbImage square{2, 2, grey_to_rgb({0, 100, 200, 40})};
  EXPECT_EQ(red_channel(resize_bilinear(square, 3, 3)),
            (std::vector<int>{0, 50, 100, 100, 85, 70, 200, 120, 40}));
  // Shrinking 4x1 -> 2x1 samples at 0.5 and 2.5: means of neighbours, no wider filter.
  RgbImage wide{4, 1, grey_to_rgb({0, 10, 20, 250})};
  EXPECT_EQ(red_channel(resize_bilinear(wide, 2, 1)), (std::vector<int>{5, 135}));
}

TEST(Image, ShortSideAndCenterCrop) {
  EXPECT_EQ(size_for_short_side(640, 480, 256), (std::pair<int, int>{341, 256}));
  EXPECT_EQ(size_for_short_side(480, 640, 256), (std::pair<int, int>{256, 341}));
  EXPECT_EQ(size_for_short_side(300, 300, 224), (std::pair<int, int>{224, 224}));
  std::vector<uint8_t> grey;
  for (int i = 0; i < 20; ++i) grey.push_back(static_cast<uint8_t>(i));
  RgbImage image{5, 4, grey_to_rgb(grey)};  // value = y * 5 + x
  auto crop = center_crop(image, 2, 2);  // margins (5-2)/2 = 1 and (4-2)/2 = 1
  ASSERT_TRUE(crop.is_ok());
  EXPECT_EQ(red_channel(*crop), (std::vector<int>{6, 7, 11, 12}));
  auto too_big = center_crop(image, 6, 2);
  EXPECT_TRUE(contains(too_big.status().message(), "crop 6x2 is larger than the image (5x4"));
}

// A 2x1 image: pixel 0 is (100, 40, 80), pixel 1 is (0, 255, 10).
std::string two_pixels(const std::string& dir) {
  return write_png(dir + "/two.png", 2, 1, 3, {100, 40, 80, 0, 255, 10});
}

TEST(LoadImage, ScaleMeanStdAndLayout) {
  const std::string path = two_pixels(fresh_dir());
  PreprocessSpec spec;
  spec.scale = 0.5;
  spec.mean = {10, 20, 30};
  spec.std = {2, 4, 5};
  auto nchw = load_image(path, spec);
  ASSERT_TRUE(nchw.is_ok()) << nchw.status().message();
  EXPECT_EQ(nchw->shape(), (std::vector<int64_t>{1, 3, 1, 2}));
  // R: (50-10)/2, (0-10)/2; G: (20-20)/4, (127.5-20)/4; B: (40-30)/5, (5-30)/5.
  const std::vector<float> planar = {20, -5, 0, 26.875f, 2, -5};
  EXPECT_EQ(std::vector<float>(nchw->data<float>(), nchw->data<float>() + 6), planar);

  spec.nhwc = true;
  auto nhwc = load_image(path, spec);
  ASSERT_TRUE(nhwc.is_ok());
  EXPECT_EQ(nhwc->shape(), (std::vector<int64_t>{1, 1, 2, 3}));
  EXPECT_EQ(std::vector<float>(nhwc->data<float>(), nhwc->data<float>() + 6),
            (std::vector<float>{20, 0, 2, -5, 26.875f, -5}));

  // BGR: channel 0 fed is blue, normalized with mean[0] / std[0].
  spec.nhwc = false;
  spec.bgr = true;
  auto bgr = load_image(path, spec);
  ASSERT_TRUE(bgr.is_ok());
  EXPECT_EQ(std::vector<float>(bgr->data<float>(), bgr->data<float>() + 6),
            (std::vector<float>{15, -2.5f, 0, 26.875f, 4, -6}));  // B: (40-10)/2, (5-10)/2; R: (50-30)/5, (0-30)/5
}

TEST(LoadImage, Float16AndUint8) {
  const std::string path = two_pixels(fresh_dir());
  PreprocessSpec spec;
  spec.scale = 0.5;
  spec.mean = {10, 20, 30};
  spec.std = {2, 4, 5};
  spec.dtype = DataType::kFloat16;
  auto half = load_image(path, spec);
  ASSERT_TRUE(half.is_ok());
  ASSERT_EQ(half->dtype(), DataType::kFloat16);
  EXPECT_EQ(math::to_float(half->data<Float16>()[3]), 26.875f);  // exact in float16
  EXPECT_EQ(math::to_float(half->data<Float16>()[1]), -5.0f);

  PreprocessSpec raw;  // uint8: clamped to [0, 255], halves rounded up
  raw.scale = 1;
  raw.std = {2, 2, 2};
  raw.mean = {0, 20, 0};
  raw.dtype = DataType::kUInt8;
  auto bytes = load_image(path, raw);
  ASSERT_TRUE(bytes.is_ok());
  // R: 100/2, 0/2; G: (40-20)/2, (255-20)/2 = 117.5; B: 80/2, 10/2.
  EXPECT_EQ(std::vector<int>(bytes->data<uint8_t>(), bytes->data<uint8_t>() + 6),
            (std::vector<int>{50, 0, 10, 118, 40, 5}));
  raw.mean = {0, 300, 0};
  auto clamped = load_image(path, raw);
  ASSERT_TRUE(clamped.is_ok());
  EXPECT_EQ(clamped->data<uint8_t>()[2], 0);  // (40-300)/2 < 0
}

TEST(LoadImage, ResizeThenCropThenNormalize) {
  // 4x4 grey image, value 16 * y + x * 4; resize to 2x2 samples at 0.5 and 2.5, then crop 1x1 at (0, 0).
  std::vector<uint8_t> grey;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) grey.push_back(static_cast<uint8_t>(16 * y + 4 * x));
  const std::string path = write_png(fresh_dir() + "/g.png", 4, 4, 3, grey_to_rgb(grey));
  auto spec = parse_preprocess("resize=2x2,crop=1x1,scale=1,mean=0,std=1");
  ASSERT_TRUE(spec.is_ok());
  auto t = load_image(path, *spec);
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{1, 3, 1, 1}));
  // Crop margin (2-1)/2 = 0: the top-left resized pixel, mean of 0, 4, 16, 20 = 10.
  EXPECT_EQ(t->data<float>()[0], 10.0f);
  auto too_big = parse_preprocess("resize=2x2,crop=3x3");
  auto err = load_image(path, *too_big);
  EXPECT_TRUE(contains(err.status().message(), "g.png")) << err.status().message();
  EXPECT_TRUE(contains(err.status().message(), "crop 3x3 is larger"));
}

TEST(MistakenVariants, BgrUnnormalizedAndLayout) {
  const std::string path = two_pixels(fresh_dir());
  PreprocessSpec spec;
  spec.scale = 0.5;
  spec.mean = {10, 20, 30};
  spec.std = {2, 4, 5};
  auto variants = mistaken_variants(path, spec);
  ASSERT_TRUE(variants.is_ok()) << variants.status().message();
  ASSERT_EQ(variants->size(), 3u);
  EXPECT_EQ((*variants)[0].first, "BGR for RGB");
  EXPECT_EQ(std::vector<float>((*variants)[0].second.data<float>(), (*variants)[0].second.data<float>() + 6),
            (std::vector<float>{15, -2.5f, 0, 26.875f, 4, -6}));
  EXPECT_EQ((*variants)[1].first, "scale without mean/std");
  EXPECT_EQ(std::vector<float>((*variants)[1].second.data<float>(), (*variants)[1].second.data<float>() + 6),
            (std::vector<float>{50, 0, 20, 127.5f, 40, 5}));
  EXPECT_EQ((*variants)[2].first, "NHWC data fed as NCHW");
  const Tensor& nhwc_as_nchw = (*variants)[2].second;
  EXPECT_EQ(nhwc_as_nchw.shape(), (std::vector<int64_t>{1, 3, 1, 2}));
  EXPECT_EQ(std::vector<float>(nhwc_as_nchw.data<float>(), nhwc_as_nchw.data<float>() + 6),
            (std::vector<float>{20, 0, 2, -5, 26.875f, -5}));

  // Without mean/std there is no "scale without mean/std" mistake to make.
  auto plain = mistaken_variants(path, PreprocessSpec{});
  ASSERT_TRUE(plain.is_ok());
  EXPECT_EQ(plain->size(), 2u);
  EXPECT_FALSE(mistaken_variants(path + ".absent", spec).is_ok());
}

}  // namespace
}  // namespace twinrt::parity
