#include "inputs_test_files.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "io/file_io.h"
#include "io/npy.h"
#include "onnx/loader.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

namespace twinrt::parity::testing {

namespace fs = std::filesystem;

std::string fresh_dir(const std::string& suffix) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(::testing::TempDir()) /
                       ("twinrt_inputs_" + std::string(info->test_suite_name()) + "_" + info->name() + suffix);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string write_png(const std::string& path, int width, int height, int channels, const std::vector<uint8_t>& pixels) {
  EXPECT_NE(stbi_write_png(path.c_str(), width, height, channels, pixels.data(), width * channels), 0) << path;
  return path;
}

std::string write_jpeg(const std::string& path, int width, int height, const std::vector<uint8_t>& rgb) {
  EXPECT_NE(stbi_write_jpg(path.c_str(), width, height, 3, rgb.data(), 95), 0) << path;
  return path;
}

std::string write_npy(const std::string& path, const Tensor& t) {
  EXPECT_TRUE(io::write_npy_file(path, t).is_ok()) << path;
  return path;
}

std::string write_pb(const std::string& path, const Tensor& t) {
  return write_text(path, onnx::serialize_tensor(t, "t"));
}

std::string write_text(const std::string& path, const std::string& text) {
  EXPECT_TRUE(io::write_file_bytes(path, text).is_ok()) << path;
  return path;
}

}  // namespace twinrt::parity::testing
