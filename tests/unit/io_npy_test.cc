// .npy reading and writing, checked against files written by NumPy (io_data/, see
// make_fixtures.py there).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "io/file_io.h"
#include "io/npy.h"

namespace twinrt::io {
namespace {

std::string fixture(const std::string& name) {
  return (std::filesystem::path(TWINRT_SOURCE_DIR) / "tests/unit/io_data" / name).string();
}

Tensor read_ok(const std::string& name) {
  auto t = read_npy_file(fixture(name));
  EXPECT_TRUE(t.is_ok()) << t.status().message();
  return t.is_ok() ? *t : Tensor();
}

std::string read_error(std::string_view bytes) {
  auto t = parse_npy(bytes, "x.npy");
  EXPECT_FALSE(t.is_ok());
  return t.is_ok() ? "" : t.status().message();
}

TEST(Npy, ReadsFloat32Matrix) {
  Tensor t = read_ok("f32_2x3.npy");
  ASSERT_EQ(t.dtype(), DataType::kFloat);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 3}));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(t.data<float>()[i], i / 4.0f);
}

TEST(Npy, ReadsScalarBoolHalfUnsignedComplexAndEmpty) {
  Tensor s = read_ok("i64_scalar.npy");
  EXPECT_EQ(s.dtype(), DataType::kInt64);
  EXPECT_EQ(s.rank(), 0);
  EXPECT_EQ(s.data<int64_t>()[0], -7);

  Tensor b = read_ok("bool_4.npy");
  ASSERT_EQ(b.dtype(), DataType::kBool);
  EXPECT_EQ(std::vector<bool>(b.data<bool>(), b.data<bool>() + 4), (std::vector<bool>{true, false, false, true}));

  Tensor h = read_ok("f16_3.npy");
  ASSERT_EQ(h.dtype(), DataType::kFloat16);
  EXPECT_EQ(h.data<Float16>()[0].bits, 0x3c00);  // 1.0
  EXPECT_EQ(h.data<Float16>()[1].bits, 0xc000);  // -2.0
  EXPECT_EQ(h.data<Float16>()[2].bits, 0x3800);  // 0.5

  Tensor u = read_ok("u16_2.npy");
  ASSERT_EQ(u.dtype(), DataType::kUInt16);
  EXPECT_EQ(u.data<uint16_t>()[1], 65535);

  Tensor c = read_ok("c64_2.npy");
  ASSERT_EQ(c.dtype(), DataType::kComplex64);
  const float* cf = static_cast<const float*>(c.raw());
  EXPECT_EQ(cf[1], 2.0f);
  EXPECT_EQ(cf[3], -3.5f);

  Tensor e = read_ok("u8_0x3.npy");
  EXPECT_EQ(e.dtype(), DataType::kUInt8);
  EXPECT_EQ(e.shape(), (std::vector<int64_t>{0, 3}));
}

TEST(Npy, ReadsVersion2Header) {
  Tensor t = read_ok("v2_i32_3.npy");
  ASSERT_EQ(t.dtype(), DataType::kInt32);
  EXPECT_EQ(t.data<int32_t>()[1], -6);
}

TEST(Npy, WritesExactlyWhatNumpyWrites) {
  auto numpy_bytes = read_file_bytes(fixture("f32_2x3.npy"));
  ASSERT_TRUE(numpy_bytes.is_ok());
  auto t = Tensor::from_vector<float>({2, 3}, {0, 0.25f, 0.5f, 0.75f, 1, 1.25f});
  ASSERT_TRUE(t.is_ok());
  auto ours = serialize_npy(*t);
  ASSERT_TRUE(ours.is_ok());
  EXPECT_EQ(*ours, *numpy_bytes);

  auto b = Tensor::from_vector<bool>({4}, {true, false, false, true});
  EXPECT_EQ(*serialize_npy(*b), *read_file_bytes(fixture("bool_4.npy")));
  auto s = Tensor::from_vector<int64_t>({}, {-7});
  EXPECT_EQ(*serialize_npy(*s), *read_file_bytes(fixture("i64_scalar.npy")));
}

TEST(Npy, RoundTripsThroughAFile) {
  auto t = Tensor::from_vector<int8_t>({3, 1}, {-128, 0, 127});
  const std::string path = ::testing::TempDir() + "twinrt_npy_roundtrip.npy";
  ASSERT_TRUE(write_npy_file(path, *t).is_ok());
  Tensor back = *read_npy_file(path);
  EXPECT_EQ(back.dtype(), DataType::kInt8);
  EXPECT_EQ(back.shape(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(back.data<int8_t>()[0], -128);
  EXPECT_EQ(back.data<int8_t>()[2], 127);
  std::remove(path.c_str());
}

TEST(Npy, RefusesWhatItCannotRepresent) {
  auto check = [](const std::string& name, const std::string& needle) {
    auto t = read_npy_file(fixture(name));
    ASSERT_FALSE(t.is_ok()) << name;
    EXPECT_NE(t.status().message().find(needle), std::string::npos) << t.status().message();
    EXPECT_NE(t.status().message().find(name), std::string::npos) << "message names the file";
  };
  check("fortran_2x3.npy", "fortran_order");
  check("bigendian_f4.npy", "big-endian");
  check("structured.npy", "structured");
  auto bf = Tensor::create(DataType::kBFloat16, {2});
  EXPECT_EQ(serialize_npy(*bf).status().code(), StatusCode::kNotImplemented);
}

TEST(Npy, TruncatedAndCorruptBytesGiveErrors) {
  const std::string good = *read_file_bytes(fixture("f32_2x3.npy"));
  // Every prefix of a valid file is rejected, never read past its end.
  for (size_t n = 0; n < good.size(); ++n) {
    auto t = parse_npy(std::string_view(good).substr(0, n), "cut.npy");
    EXPECT_FALSE(t.is_ok()) << "prefix of " << n << " bytes";
  }
  EXPECT_NE(read_error(good.substr(0, good.size() - 1)).find("truncated"), std::string::npos);
  EXPECT_NE(read_error(good + "xx").find("trailing"), std::string::npos);
  EXPECT_NE(read_error("PK\x03\x04 not npy").find("magic"), std::string::npos);

  std::string huge = good;
  huge.replace(huge.find("(2, 3)"), 6, "(9999999999999, 3)");
  EXPECT_FALSE(parse_npy(huge, "x.npy").is_ok());  // header length changed: also caught
}

TEST(Npy, HeaderClaimingHugeShapeDoesNotAllocate) {
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904,), }\n";
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(dict.size() & 0xff);
  bytes += static_cast<char>(dict.size() >> 8);
  bytes += dict;
  EXPECT_FALSE(parse_npy(bytes, "x.npy").is_ok());
}

}  // namespace
}  // namespace twinrt::io
