// External tensor data: resolved next to the model, range-checked, read (never mapped)
// from regular files only, and never allowed to leave the model's folder.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "onnx/loader.h"
#include "onnx_test_protos.h"

namespace twinrt::onnx {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string external_tensor(const std::vector<std::pair<std::string, std::string>>& entries,
                            std::vector<int64_t> dims = {2}) {
  auto w = testing::tensor_header(dims, 1, "w");
  for (const auto& [k, v] : entries) w.bytes_field(tensor_proto::kExternalData, testing::string_entry(k, v));
  w.varint_field(tensor_proto::kDataLocation, tensor_proto::kLocationExternal);
  return w.take();
}

class OnnxExternalData : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("twinrt_ext_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "model" / "sub");
    fs::create_directories(root_ / "outside");
    // weights.bin: 4 bytes of padding, then floats 1.5 and -3.
    write(root_ / "model" / "weights.bin", "pad!" + testing::bytes_of(std::vector<float>{1.5f, -3.f}));
    write(root_ / "model" / "sub" / "w.bin", testing::bytes_of(std::vector<float>{7.f, 8.f}));
    write(root_ / "outside" / "secret.bin", testing::bytes_of(std::vector<float>{9.f, 9.f}));
    fs::create_symlink(root_ / "outside" / "secret.bin", root_ / "model" / "escape.bin");
    fs::create_symlink(root_ / "model" / "sub" / "w.bin", root_ / "model" / "inside_link.bin");
  }
  void TearDown() override { fs::remove_all(root_); }

  Result<ir::Model> load_with(const std::string& tensor) {
    fs::path path = root_ / "model" / "model.onnx";
    write(path, testing::identity_model({tensor}));
    return load_model_file(path.string());
  }
  void expect_refused(const std::string& tensor, const std::string& fragment) {
    auto r = load_with(tensor);
    ASSERT_FALSE(r.is_ok()) << "expected an error containing '" << fragment << "'";
    EXPECT_NE(r.status().message().find(fragment), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("'w'"), std::string::npos) << r.status().message();
  }

  fs::path root_;
};

std::vector<float> floats(const Tensor& t) { return {t.data<float>(), t.data<float>() + t.numel()}; }

TEST_F(OnnxExternalData, ReadsTheRangeIntoMemoryTheTensorOwns) {
  auto m = load_with(external_tensor({{"location", "weights.bin"}, {"offset", "4"}, {"length", "8"}}));
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  const Tensor& w = m->graph->initializers.at("w");
  EXPECT_EQ(floats(w), (std::vector<float>{1.5f, -3.f}));
  EXPECT_LT(w.storage()->size(), 128u) << "only the tensor's range is held, not the file";
}

TEST_F(OnnxExternalData, SubfolderAndInsideSymlinkAreAllowed) {
  auto sub = load_with(external_tensor({{"location", "sub/w.bin"}}));
  ASSERT_TRUE(sub.is_ok()) << sub.status().message();
  EXPECT_EQ(floats(sub->graph->initializers.at("w")), (std::vector<float>{7.f, 8.f}));
  auto link = load_with(external_tensor({{"location", "inside_link.bin"}}));
  ASSERT_TRUE(link.is_ok()) << link.status().message();
}

TEST_F(OnnxExternalData, EscapesAreRefused) {
  expect_refused(external_tensor({{"location", (root_ / "outside" / "secret.bin").string()}}), "absolute");
  expect_refused(external_tensor({{"location", "../outside/secret.bin"}}), "'..'");
  expect_refused(external_tensor({{"location", "sub/../../outside/secret.bin"}}), "'..'");
  expect_refused(external_tensor({{"location", "escape.bin"}}), "outside the model's folder");
  expect_refused(external_tensor({{"location", ""}}), "empty");
}

TEST_F(OnnxExternalData, RangesAreCheckedAgainstTheFile) {
  expect_refused(external_tensor({{"location", "weights.bin"}, {"offset", "8"}}), "lies outside");
  expect_refused(external_tensor({{"location", "weights.bin"}, {"offset", "18446744073709551615"}}),
                 "offset");
  expect_refused(external_tensor({{"location", "weights.bin"}, {"length", "4"}}), "does not match");
  expect_refused(external_tensor({{"location", "weights.bin"}, {"offset", "-1"}}), "offset");
  expect_refused(external_tensor({{"location", "missing.bin"}}), "missing.bin");
  expect_refused(external_tensor({{"location", "sub"}}), "not a regular file");
}

TEST_F(OnnxExternalData, NonRegularFilesAreRefusedWithoutBlocking) {
  // Opening a FIFO for reading used to wait for a writer forever.
  ASSERT_EQ(::mkfifo((root_ / "model" / "fifo.bin").c_str(), 0600), 0);
  expect_refused(external_tensor({{"location", "fifo.bin"}}), "is a FIFO");
}

TEST_F(OnnxExternalData, OnlyTheTensorsRangeOfAHugeSparseFileIsRead) {
  // 32 GB, sparse: mapping all of it (writable) failed with "Cannot allocate memory".
  const uint64_t size = uint64_t{32} << 30;
  {
    std::ofstream out(root_ / "model" / "huge.bin", std::ios::binary);
    out.seekp(static_cast<std::streamoff>(size - 8));
    const std::string two = testing::bytes_of(std::vector<float>{4.f, 5.f});
    out.write(two.data(), 8);
  }
  ASSERT_EQ(fs::file_size(root_ / "model" / "huge.bin"), size);
  auto m = load_with(external_tensor({{"location", "huge.bin"}, {"offset", std::to_string(size - 8)}}));
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  EXPECT_EQ(floats(m->graph->initializers.at("w")), (std::vector<float>{4.f, 5.f}));
}

TEST_F(OnnxExternalData, ALoadedModelDoesNotSeeItsFilesChange) {
  // Rewriting the weights in place changed a live model's numbers through the shared
  // mapping, and truncating the model file made the next read die with SIGBUS.
  const std::string inline_u8 = testing::raw_tensor({4}, 2, "\x01\x02\x03\x04", "u8");
  fs::path path = root_ / "model" / "model.onnx";
  write(path, testing::identity_model({external_tensor({{"location", "weights.bin"}, {"offset", "4"}}), inline_u8}));
  auto m = load_model_file(path.string());
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  {
    std::fstream in_place(root_ / "model" / "weights.bin", std::ios::in | std::ios::out | std::ios::binary);
    const std::string other = testing::bytes_of(std::vector<float>{-1.f, -1.f});
    in_place.seekp(4);
    in_place.write(other.data(), 8);
  }
  fs::resize_file(path, 0);
  EXPECT_EQ(floats(m->graph->initializers.at("w")), (std::vector<float>{1.5f, -3.f}));
  const Tensor& u8 = m->graph->initializers.at("u8");
  EXPECT_EQ(std::string(static_cast<const char*>(u8.raw()), 4), "\x01\x02\x03\x04");
}

TEST_F(OnnxExternalData, BytesWithoutAFolderAreRefused) {
  std::string model = testing::identity_model({external_tensor({{"location", "weights.bin"}})});
  auto r = load_model_bytes(model.data(), model.size(), LoadOptions{});
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("external data"), std::string::npos);
  LoadOptions with_dir;
  with_dir.base_dir = (root_ / "model").string();
  auto ok = load_model_bytes(model.data(), model.size(), with_dir);
  ASSERT_TRUE(ok.is_ok()) << ok.status().message();
  const Tensor& w = ok->graph->initializers.at("w");  // no offset: the file's first 8 bytes
  EXPECT_EQ(std::string(static_cast<const char*>(w.raw()), 4), "pad!");
  EXPECT_EQ(w.data<float>()[1], 1.5f);
}

}  // namespace
}  // namespace twinrt::onnx
