// The protobuf wire primitives: varints, tags, lengths, packed and unpacked repeats.
#include <gtest/gtest.h>

#include "onnx/wire.h"
#include "onnx/wire_writer.h"

namespace twinrt::onnx::wire {
namespace {

std::vector<uint8_t> bytes(std::initializer_list<int> v) {
  std::vector<uint8_t> out;
  for (int b : v) out.push_back(static_cast<uint8_t>(b));
  return out;
}

TEST(OnnxWire, VarintDecodesKnownEncodings) {
  struct Case { std::vector<uint8_t> in; uint64_t want; };
  const Case cases[] = {
      {bytes({0x00}), 0},
      {bytes({0x01}), 1},
      {bytes({0x96, 0x01}), 150},  // the protobuf documentation's example
      {bytes({0xff, 0xff, 0xff, 0xff, 0x0f}), 0xffffffffu},
      {bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}), UINT64_MAX},
  };
  for (const auto& c : cases) {
    const uint8_t* p = c.in.data();
    uint64_t v = 0;
    ASSERT_TRUE(read_varint(&p, c.in.data() + c.in.size(), &v));
    EXPECT_EQ(v, c.want);
    EXPECT_EQ(p, c.in.data() + c.in.size());
  }
}

TEST(OnnxWire, VarintRejectsTruncatedAndOverlong) {
  auto truncated = bytes({0x96});
  const uint8_t* p = truncated.data();
  uint64_t v = 0;
  EXPECT_FALSE(read_varint(&p, truncated.data() + truncated.size(), &v));
  auto overlong = bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01});
  p = overlong.data();
  EXPECT_FALSE(read_varint(&p, overlong.data() + overlong.size(), &v));
  p = truncated.data();
  EXPECT_FALSE(read_varint(&p, truncated.data(), &v));  // empty range
}

TEST(OnnxWire, ReaderDecodesEveryWireType) {
  WireWriter w;
  w.varint_field(1, 300);
  w.float_field(2, 1.5f);
  w.double_field(3, -2.25);
  w.bytes_field(4, "abc");
  const std::string& b = w.bytes();
  WireReader r(reinterpret_cast<const uint8_t*>(b.data()), b.size(), "Test");
  Field f;
  ASSERT_TRUE(r.next(&f).is_ok());
  EXPECT_EQ(f.number, 1u);
  EXPECT_EQ(as_int64(f, "Test.a").value(), 300);
  ASSERT_TRUE(r.next(&f).is_ok());
  EXPECT_EQ(as_float(f, "Test.b").value(), 1.5f);
  ASSERT_TRUE(r.next(&f).is_ok());
  std::vector<double> d;
  ASSERT_TRUE(append_doubles(f, "Test.c", &d).is_ok());
  EXPECT_EQ(d, std::vector<double>{-2.25});
  ASSERT_TRUE(r.next(&f).is_ok());
  EXPECT_EQ(as_string(f, "Test.d").value(), "abc");
  EXPECT_TRUE(r.at_end());
}

TEST(OnnxWire, LengthPastTheEndIsAnError) {
  auto b = bytes({0x0a, 0x05, 'a', 'b'});  // field 1, length 5, only 2 bytes follow
  WireReader r(b.data(), b.size(), "Test");
  Field f;
  Status st = r.next(&f);
  ASSERT_FALSE(st.is_ok());
  EXPECT_NE(st.message().find("runs past the end"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("Test"), std::string::npos);
}

TEST(OnnxWire, TruncatedFixedWidthAndGroupsAndFieldZeroAreErrors) {
  for (auto b : {bytes({0x0d, 0x00, 0x00}), bytes({0x09, 1, 2, 3, 4, 5, 6, 7}), bytes({0x0b}),
                 bytes({0x0c}), bytes({0x00, 0x00}), bytes({0x0e}), bytes({0x0f})}) {
    WireReader r(b.data(), b.size(), "Test");
    Field f;
    EXPECT_FALSE(r.next(&f).is_ok());
  }
}

TEST(OnnxWire, WireTypeMismatchNamesTheField) {
  WireWriter w;
  w.bytes_field(1, "x");
  const std::string& b = w.bytes();
  WireReader r(reinterpret_cast<const uint8_t*>(b.data()), b.size(), "Test");
  Field f;
  ASSERT_TRUE(r.next(&f).is_ok());
  auto v = as_int64(f, "TensorProto.data_type");
  ASSERT_FALSE(v.is_ok());
  EXPECT_NE(v.status().message().find("TensorProto.data_type"), std::string::npos);
  std::vector<float> floats;
  Field varint{1, WireType::kVarint, 7, nullptr, 0};
  EXPECT_FALSE(append_floats(varint, "AttributeProto.floats", &floats).is_ok());
}

TEST(OnnxWire, RepeatedAcceptsPackedAndUnpacked) {
  WireWriter w;
  w.packed_int64s(1, {1, -1, 300});
  w.varint_field(1, 7);
  w.packed_floats(2, {0.5f, 2.0f});
  w.float_field(2, 3.0f);
  const std::string& b = w.bytes();
  WireReader r(reinterpret_cast<const uint8_t*>(b.data()), b.size(), "Test");
  std::vector<int64_t> ints;
  std::vector<float> floats;
  Field f;
  while (!r.at_end()) {
    ASSERT_TRUE(r.next(&f).is_ok());
    if (f.number == 1) ASSERT_TRUE(append_int64s(f, "Test.ints", &ints).is_ok());
    else ASSERT_TRUE(append_floats(f, "Test.floats", &floats).is_ok());
  }
  EXPECT_EQ(ints, (std::vector<int64_t>{1, -1, 300, 7}));
  EXPECT_EQ(floats, (std::vector<float>{0.5f, 2.0f, 3.0f}));
}

TEST(OnnxWire, Int32KeepsLowBitsOfSignExtendedVarint) {
  WireWriter w;
  w.packed_int64s(1, {-5, 0x1'0000'0007});
  const std::string& b = w.bytes();
  WireReader r(reinterpret_cast<const uint8_t*>(b.data()), b.size(), "Test");
  Field f;
  ASSERT_TRUE(r.next(&f).is_ok());
  std::vector<int32_t> v;
  ASSERT_TRUE(append_int32s(f, "Test.int32s", &v).is_ok());
  EXPECT_EQ(v, (std::vector<int32_t>{-5, 7}));
}

TEST(OnnxWire, PackedFixedWidthMustBeWholeElements) {
  auto b = bytes({0x0a, 0x03, 0, 0, 0});  // 3 bytes of packed floats
  WireReader r(b.data(), b.size(), "Test");
  Field f;
  ASSERT_TRUE(r.next(&f).is_ok());
  std::vector<float> v;
  EXPECT_FALSE(append_floats(f, "Test.floats", &v).is_ok());
  auto truncated = bytes({0x0a, 0x01, 0x80});  // packed varint cut short
  WireReader r2(truncated.data(), truncated.size(), "Test");
  ASSERT_TRUE(r2.next(&f).is_ok());
  std::vector<int64_t> ints;
  EXPECT_FALSE(append_int64s(f, "Test.ints", &ints).is_ok());
}

}  // namespace
}  // namespace twinrt::onnx::wire
