// TensorProto / SparseTensorProto decoding: raw data, every typed field, and the checks.
#include <gtest/gtest.h>

#include "onnx/loader.h"
#include "onnx_test_protos.h"

namespace twinrt::onnx {
namespace {

using testing::bytes_of;
using testing::raw_tensor;
using testing::tensor_header;

Result<Tensor> parse(const std::string& b) { return parse_tensor(b.data(), b.size()); }

template <class T>
std::vector<T> values(const Tensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

TEST(OnnxTensor, RawFloatWithNameAndDims) {
  std::vector<float> v = {1.f, -2.f, 3.5f, 0.f, 5.f, 6.f};
  auto t = parse(raw_tensor({2, 3}, 1, bytes_of(v), "w"));
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  EXPECT_EQ(t->dtype(), DataType::kFloat);
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<float>(*t), v);
}

TEST(OnnxTensor, FloatDataPackedAndUnpacked) {
  auto w = tensor_header({3}, 1);
  w.packed_floats(tensor_proto::kFloatData, {1.f, 2.f});
  w.float_field(tensor_proto::kFloatData, 4.f);
  auto t = parse(w.take());
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  EXPECT_EQ(values<float>(*t), (std::vector<float>{1.f, 2.f, 4.f}));
}

TEST(OnnxTensor, Int32DataHoldsSmallIntegersBoolsAndHalfBits) {
  struct Case { int32_t dtype; std::vector<int64_t> in; };
  auto run = [](int32_t dtype, const std::vector<int64_t>& in) {
    auto w = tensor_header({static_cast<int64_t>(in.size())}, dtype);
    w.packed_int64s(tensor_proto::kInt32Data, in);
    return parse(w.take());
  };
  auto i8 = run(3, {-128, 127, -1});
  ASSERT_TRUE(i8.is_ok());
  EXPECT_EQ(values<int8_t>(*i8), (std::vector<int8_t>{-128, 127, -1}));
  auto u8 = run(2, {0, 255});
  ASSERT_TRUE(u8.is_ok());
  EXPECT_EQ(values<uint8_t>(*u8), (std::vector<uint8_t>{0, 255}));
  auto i16 = run(5, {-32768, 300});
  ASSERT_TRUE(i16.is_ok());
  EXPECT_EQ(values<int16_t>(*i16), (std::vector<int16_t>{-32768, 300}));
  auto u16 = run(4, {65535});
  ASSERT_TRUE(u16.is_ok());
  EXPECT_EQ(values<uint16_t>(*u16), (std::vector<uint16_t>{65535}));
  auto i32 = run(6, {-7, 2147483647});
  ASSERT_TRUE(i32.is_ok());
  EXPECT_EQ(values<int32_t>(*i32), (std::vector<int32_t>{-7, 2147483647}));
  auto b = run(9, {1, 0, 1});
  ASSERT_TRUE(b.is_ok());
  EXPECT_EQ(values<bool>(*b), (std::vector<bool>{true, false, true}));
  auto f16 = run(10, {0x3c00, 0xc000});  // 1.0, -2.0
  ASSERT_TRUE(f16.is_ok());
  EXPECT_EQ(f16->data<uint16_t>()[0], 0x3c00);
  EXPECT_EQ(f16->data<uint16_t>()[1], 0xc000);
  auto bf16 = run(16, {0x3f80});  // 1.0
  ASSERT_TRUE(bf16.is_ok());
  EXPECT_EQ(bf16->dtype(), DataType::kBFloat16);
  EXPECT_EQ(bf16->data<uint16_t>()[0], 0x3f80);
}

TEST(OnnxTensor, Int64Uint64DoubleAndComplexFields) {
  auto w = tensor_header({2}, 7);
  w.packed_int64s(tensor_proto::kInt64Data, {INT64_MIN, 42});
  auto i64 = parse(w.take());
  ASSERT_TRUE(i64.is_ok());
  EXPECT_EQ(values<int64_t>(*i64), (std::vector<int64_t>{INT64_MIN, 42}));

  auto u = tensor_header({2}, 13);
  u.varint_field(tensor_proto::kUint64Data, UINT64_MAX);
  u.varint_field(tensor_proto::kUint64Data, 3);
  auto u64 = parse(u.take());
  ASSERT_TRUE(u64.is_ok());
  EXPECT_EQ(values<uint64_t>(*u64), (std::vector<uint64_t>{UINT64_MAX, 3}));

  auto u32w = tensor_header({1}, 12);
  u32w.varint_field(tensor_proto::kUint64Data, 4000000000u);
  auto u32 = parse(u32w.take());
  ASSERT_TRUE(u32.is_ok());
  EXPECT_EQ(u32->data<uint32_t>()[0], 4000000000u);

  auto d = tensor_header({2}, 11);
  d.double_field(tensor_proto::kDoubleData, 0.1);
  d.double_field(tensor_proto::kDoubleData, -1e300);
  auto f64 = parse(d.take());
  ASSERT_TRUE(f64.is_ok());
  EXPECT_EQ(values<double>(*f64), (std::vector<double>{0.1, -1e300}));

  auto c = tensor_header({2}, 14);  // complex64: (real, imag) pairs
  c.packed_floats(tensor_proto::kFloatData, {1.f, 2.f, 3.f, 4.f});
  auto c64 = parse(c.take());
  ASSERT_TRUE(c64.is_ok()) << c64.status().message();
  EXPECT_EQ(std::vector<float>(c64->data<float>(), c64->data<float>() + 4),
            (std::vector<float>{1.f, 2.f, 3.f, 4.f}));
}

TEST(OnnxTensor, StringData) {
  auto w = tensor_header({2}, 8);
  w.bytes_field(tensor_proto::kStringData, "hello");
  w.bytes_field(tensor_proto::kStringData, std::string("a\0b", 3));
  auto t = parse(w.take());
  ASSERT_TRUE(t.is_ok());
  EXPECT_EQ(t->data<std::string>()[0], "hello");
  EXPECT_EQ(t->data<std::string>()[1], std::string("a\0b", 3));
}

TEST(OnnxTensor, ScalarAndEmptyTensors) {
  auto s = parse(raw_tensor({}, 7, bytes_of(std::vector<int64_t>{9})));
  ASSERT_TRUE(s.is_ok());
  EXPECT_EQ(s->rank(), 0);
  EXPECT_EQ(s->data<int64_t>()[0], 9);
  auto e = parse(tensor_header({0, 3}, 1).take());
  ASSERT_TRUE(e.is_ok()) << e.status().message();
  EXPECT_EQ(e->numel(), 0);
}

void expect_error(const std::string& proto, const std::string& fragment) {
  auto t = parse(proto);
  ASSERT_FALSE(t.is_ok()) << "expected an error containing '" << fragment << "'";
  EXPECT_NE(t.status().message().find(fragment), std::string::npos) << t.status().message();
}

TEST(OnnxTensor, MalformedTensorsAreNamedErrors) {
  expect_error(raw_tensor({2}, 1, "abc", "w"), "tensor 'w': raw_data holds 3 bytes");
  expect_error(raw_tensor({-1}, 1, ""), "negative dimension");
  expect_error(raw_tensor({1}, 99, "x"), "data_type 99");
  expect_error(raw_tensor({1}, 0, "x"), "data_type 0");
  expect_error(raw_tensor({int64_t{1} << 40, int64_t{1} << 40}, 1, ""), "too large");
  expect_error(raw_tensor({int64_t{1} << 62}, 1, ""), "too large");
  expect_error(raw_tensor({1}, 8, "x"), "string tensors cannot use raw_data");

  auto count = tensor_header({3}, 1, "c");
  count.packed_floats(tensor_proto::kFloatData, {1.f});
  expect_error(count.take(), "float_data holds 1 values");

  auto wrong_field = tensor_header({1}, 7);
  wrong_field.packed_floats(tensor_proto::kFloatData, {1.f});
  expect_error(wrong_field.take(), "int64_data");

  auto both = tensor_header({1}, 1);
  both.packed_floats(tensor_proto::kFloatData, {1.f});
  both.bytes_field(tensor_proto::kRawData, bytes_of(std::vector<float>{1.f}));
  expect_error(both.take(), "both raw_data and typed");

  auto segment = tensor_header({1}, 1);
  segment.bytes_field(tensor_proto::kSegment, "");
  expect_error(segment.take(), "segment");

  auto no_data = tensor_header({4}, 1);
  expect_error(no_data.take(), "float_data holds 0 values");

  auto external = tensor_header({1}, 1);
  external.varint_field(tensor_proto::kDataLocation, 1);
  expect_error(external.take(), "external data");
}

TEST(OnnxTensor, SerializeTensorRoundTrips) {
  auto f = Tensor::from_vector<float>({2, 2}, {1.f, 2.f, 3.f, 4.f});
  ASSERT_TRUE(f.is_ok());
  std::string b = serialize_tensor(*f, "x");
  auto back = parse(b);
  ASSERT_TRUE(back.is_ok());
  EXPECT_EQ(back->shape(), f->shape());
  EXPECT_EQ(values<float>(*back), (std::vector<float>{1.f, 2.f, 3.f, 4.f}));

  auto s = Tensor::from_vector<std::string>({2}, {"ab", ""});
  ASSERT_TRUE(s.is_ok());
  auto sback = parse(serialize_tensor(*s, "s"));
  ASSERT_TRUE(sback.is_ok());
  EXPECT_EQ(sback->data<std::string>()[0], "ab");
  EXPECT_EQ(sback->data<std::string>()[1], "");
}

std::string sparse(const std::string& values, const std::string& indices, const std::vector<int64_t>& dims) {
  testing::WireWriter w;
  w.bytes_field(sparse_tensor_proto::kValues, values);
  w.bytes_field(sparse_tensor_proto::kIndices, indices);
  w.packed_int64s(sparse_tensor_proto::kDims, dims);
  return w.take();
}

Result<Tensor> load_sparse(const std::string& sparse_tensor) {
  std::string m = testing::identity_model({}, {sparse_tensor});
  auto model = load_model_bytes(m.data(), m.size(), LoadOptions{});
  if (!model) return model.status();
  auto it = model->graph->initializers.find("w");
  if (it == model->graph->initializers.end()) return invalid_model("no initializer w");
  return it->second;
}

TEST(OnnxTensor, SparseInitializerWithLinearIndicesIsDensified) {
  auto t = load_sparse(sparse(raw_tensor({2}, 1, bytes_of(std::vector<float>{5.f, 7.f}), "w"),
                              raw_tensor({2}, 7, bytes_of(std::vector<int64_t>{1, 5})), {2, 3}));
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<float>(*t), (std::vector<float>{0, 5, 0, 0, 0, 7}));
}

TEST(OnnxTensor, SparseInitializerWithCoordinateIndicesIsDensified) {
  auto t = load_sparse(sparse(raw_tensor({2}, 7, bytes_of(std::vector<int64_t>{5, 7}), "w"),
                              raw_tensor({2, 2}, 7, bytes_of(std::vector<int64_t>{0, 2, 1, 0})), {2, 3}));
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  EXPECT_EQ(values<int64_t>(*t), (std::vector<int64_t>{0, 0, 5, 7, 0, 0}));
}

TEST(OnnxTensor, SparseIndicesOutOfRangeAreErrors) {
  auto values = raw_tensor({1}, 1, bytes_of(std::vector<float>{1.f}), "w");
  auto linear = load_sparse(sparse(values, raw_tensor({1}, 7, bytes_of(std::vector<int64_t>{6})), {2, 3}));
  ASSERT_FALSE(linear.is_ok());
  EXPECT_NE(linear.status().message().find("sparse tensor 'w'"), std::string::npos);
  auto coord = load_sparse(sparse(values, raw_tensor({1, 2}, 7, bytes_of(std::vector<int64_t>{0, -1})), {2, 3}));
  EXPECT_FALSE(coord.is_ok());
  auto shape = load_sparse(sparse(values, raw_tensor({3}, 7, bytes_of(std::vector<int64_t>{0, 1, 2})), {2, 3}));
  EXPECT_FALSE(shape.is_ok());
  auto huge = load_sparse(sparse(values, raw_tensor({1}, 7, bytes_of(std::vector<int64_t>{0})), {1 << 30, 1 << 30}));
  EXPECT_FALSE(huge.is_ok());
}

}  // namespace
}  // namespace twinrt::onnx
