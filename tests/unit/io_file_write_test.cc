// Output files (--json, --html, --markdown, --out): a temp file renamed into place only over
// a regular file or an absent path; other targets are written in place; "-" is stdout.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "io/file_io.h"

namespace twinrt::io {
namespace {

namespace fs = std::filesystem;

class FileWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("twinrt_write_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(FileWrite, RegularAndAbsentTargetsAreReplacedWhole) {
  ASSERT_TRUE(write_file_bytes((dir_ / "r.json").string(), "first").is_ok());
  ASSERT_TRUE(write_file_bytes((dir_ / "r.json").string(), "second").is_ok());
  EXPECT_EQ(*read_file_bytes((dir_ / "r.json").string()), "second");
  EXPECT_FALSE(fs::exists(dir_ / "r.json.tmp"));
}

TEST_F(FileWrite, ASymlinkIsWrittenThroughNotReplaced) {
  ASSERT_TRUE(write_file_bytes((dir_ / "target.json").string(), "old").is_ok());
  fs::create_symlink(dir_ / "target.json", dir_ / "link.json");
  ASSERT_TRUE(write_file_bytes((dir_ / "link.json").string(), "new").is_ok());
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.json"));
  EXPECT_EQ(*read_file_bytes((dir_ / "target.json").string()), "new");
}

TEST_F(FileWrite, AFifoIsWrittenIntoNotReplaced) {
  const fs::path fifo = dir_ / "report.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A reader must exist for the writer's open to succeed; non-blocking so the test cannot hang.
  int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  Status st = write_file_bytes(fifo.string(), "through the pipe");
  char buf[64] = {};
  ssize_t n = ::read(reader, buf, sizeof buf);
  ::close(reader);
  ASSERT_TRUE(st.is_ok()) << st.message();
  EXPECT_TRUE(fs::is_fifo(fifo)) << "the FIFO was replaced by a regular file";
  EXPECT_EQ(std::string(buf, n > 0 ? static_cast<size_t>(n) : 0), "through the pipe");
}

TEST_F(FileWrite, DashIsStandardOutput) {
  ::testing::internal::CaptureStdout();
  Status st = write_file_bytes("-", "{\"ok\": true}\n");
  const std::string out = ::testing::internal::GetCapturedStdout();
  ASSERT_TRUE(st.is_ok()) << st.message();
  EXPECT_EQ(out, "{\"ok\": true}\n");
  EXPECT_FALSE(fs::exists("-"));
}

TEST_F(FileWrite, NonRegularInputsAreRefused) {
  auto zero = read_file_bytes("/dev/zero");
  ASSERT_FALSE(zero.is_ok());
  EXPECT_NE(zero.status().message().find("is a character device"), std::string::npos) << zero.status().message();
  auto folder = read_file_bytes(dir_.string());
  ASSERT_FALSE(folder.is_ok());
  EXPECT_NE(folder.status().message().find("is a directory"), std::string::npos) << folder.status().message();
}

}  // namespace
}  // namespace twinrt::io
