// .npz archives and the DEFLATE decoder, checked against NumPy's and zlib's output
// (fixtures in io_data/, written by make_fixtures.py).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "io/file_io.h"
#include "io/inflate.h"
#include "io/npz.h"

namespace twinrt::io {
namespace {

std::string fixture_bytes(const std::string& name) {
  auto b = read_file_bytes((std::filesystem::path(TWINRT_SOURCE_DIR) / "tests/unit/io_data" / name).string());
  EXPECT_TRUE(b.is_ok()) << b.status().message();
  return b.is_ok() ? *b : std::string();
}

TEST(Crc32, StandardCheckValue) {
  EXPECT_EQ(crc32("123456789"), 0xcbf43926u);  // the CRC-32/ISO-HDLC check value
  EXPECT_EQ(crc32(""), 0u);
}

TEST(Inflate, DecodesEveryBlockTypeZlibWrites) {
  for (const char* name : {"fixed", "dynamic", "stored"}) {
    const std::string raw = fixture_bytes(std::string(name) + ".raw");
    auto out = inflate_raw(fixture_bytes(std::string(name) + ".deflate"), raw.size());
    ASSERT_TRUE(out.is_ok()) << name << ": " << out.status().message();
    EXPECT_EQ(*out, raw) << name;
  }
}

TEST(Inflate, RejectsWrongSizesAndCorruption) {
  const std::string raw = fixture_bytes("dynamic.raw");
  const std::string deflated = fixture_bytes("dynamic.deflate");
  EXPECT_FALSE(inflate_raw(deflated, raw.size() - 1).is_ok());  // more data than declared
  EXPECT_FALSE(inflate_raw(deflated, raw.size() + 1).is_ok());  // less
  EXPECT_FALSE(inflate_raw(deflated, size_t{1} << 40).is_ok());  // impossible ratio, no huge allocation
  for (size_t n = 0; n < deflated.size(); n += 7)  // truncations fail cleanly
    EXPECT_FALSE(inflate_raw(deflated.substr(0, n), raw.size()).is_ok()) << n;
  std::string flipped = deflated;
  for (size_t i = 0; i < flipped.size(); i += 13) {  // bit flips never read out of bounds
    flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
    (void)inflate_raw(flipped, raw.size());
  }
  EXPECT_FALSE(inflate_raw(std::string("\x07", 1), 4).is_ok());  // block type 3 is reserved
}

TEST(Npz, ReadsStoredArchive) {
  auto members = parse_npz(fixture_bytes("stored.npz"), "stored.npz");
  ASSERT_TRUE(members.is_ok()) << members.status().message();
  ASSERT_EQ(members->size(), 2u);
  EXPECT_EQ((*members)[0].name, "x");
  EXPECT_EQ((*members)[0].tensor.data<float>()[1], 2.5f);
  EXPECT_EQ((*members)[1].name, "y");
  EXPECT_EQ((*members)[1].tensor.shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ((*members)[1].tensor.data<int64_t>()[1], 2);
}

TEST(Npz, ReadsCompressedArchive) {
  auto members = parse_npz(fixture_bytes("deflated.npz"), "deflated.npz");
  ASSERT_TRUE(members.is_ok()) << members.status().message();
  ASSERT_EQ(members->size(), 2u);
  EXPECT_EQ((*members)[0].name, "x");
  ASSERT_EQ((*members)[0].tensor.numel(), 100);
  for (int i = 0; i < 100; ++i) EXPECT_EQ((*members)[0].tensor.data<float>()[i], static_cast<float>(i));
  EXPECT_EQ((*members)[1].name, "flag");
  EXPECT_TRUE((*members)[1].tensor.data<bool>()[0]);
}

TEST(Npz, CorruptArchivesGiveErrorsNamingTheArchive) {
  const std::string good = fixture_bytes("deflated.npz");
  for (size_t n = 0; n < good.size(); n += 5) {
    auto r = parse_npz(good.substr(0, n), "cut.npz");
    ASSERT_FALSE(r.is_ok()) << n;
    EXPECT_NE(r.status().message().find("cut.npz"), std::string::npos);
  }
  // Damage the compressed data of the first member: the CRC or the decoder catches it.
  std::string damaged = good;
  damaged[60] = static_cast<char>(damaged[60] ^ 0xff);
  EXPECT_FALSE(parse_npz(damaged, "damaged.npz").is_ok());
  EXPECT_NE(parse_npz("not a zip at all, just text", "t.npz").status().message().find("not a zip"),
            std::string::npos);
}

}  // namespace
}  // namespace twinrt::io
