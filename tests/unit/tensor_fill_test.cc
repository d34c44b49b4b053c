// Expand, Tile, Pad, Shape, Size, Constant, ConstantOfShape, Range, EyeLike, OneHot.
#include "tensor_op_harness.h"

namespace twinrt::tensor_testing {
namespace {

TEST(TensorExpand, BroadcastsBothWaysAndInfers) {
  // [3,1] expanded to [2,1,6] -> [2,3,6]
  auto out = TensorOpTest("Expand", 13).input<int32_t>({3, 1}, {1, 2, 3}).input<int64_t>({3}, {2, 1, 6}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{2, 3, 6}));
  auto v = values<int32_t>(out->at(0));
  EXPECT_EQ(v[0], 1);
  EXPECT_EQ(v[6], 2);
  EXPECT_EQ(v[35], 3);
  EXPECT_FALSE(TensorOpTest("Expand", 13).input<int32_t>({3}, {1, 2, 3}).input<int64_t>({1}, {2}).run().is_ok());
  auto t = TensorOpTest("Expand", 13).input_type(DataType::kFloat, ir::Shape{sym("n"), dim(1)})
               .input_type(DataType::kInt64, ir::Shape{dim(3)}).infer();
  ASSERT_TRUE(t.is_ok());
  EXPECT_EQ(t->at(0).shape->size(), 3u);
}

TEST(TensorTile, RepeatsEachAxis) {
  auto out = TensorOpTest("Tile", 13).input<std::string>({2}, {"a", "b"}).input<int64_t>({1}, {3}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<std::string>(out->at(0)), (std::vector<std::string>{"a", "b", "a", "b", "a", "b"}));
  auto two = TensorOpTest("Tile", 13).input<float>({2, 2}, {1, 2, 3, 4}).input<int64_t>({2}, {2, 1}).run();
  ASSERT_TRUE(two.is_ok());
  EXPECT_EQ(values<float>(two->at(0)), (std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4}));
  EXPECT_FALSE(TensorOpTest("Tile", 13).input<float>({2}, {1, 2}).input<int64_t>({1}, {-1}).run().is_ok());
}

TEST(TensorPad, ModesAndNegativePads) {
  const std::vector<float> x{1, 2, 3};
  auto constant = TensorOpTest("Pad", 13).input<float>({3}, x).input<int64_t>({2}, {2, 1})
                      .input<float>({}, {9}).run();
  ASSERT_TRUE(constant.is_ok()) << constant.status().message();
  EXPECT_EQ(values<float>(constant->at(0)), (std::vector<float>{9, 9, 1, 2, 3, 9}));
  auto reflect = TensorOpTest("Pad", 13).attr("mode", "reflect").input<float>({3}, x).input<int64_t>({2}, {2, 2}).run();
  ASSERT_TRUE(reflect.is_ok());
  EXPECT_EQ(values<float>(reflect->at(0)), (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
  auto edge = TensorOpTest("Pad", 2).attr("mode", "edge").attr("pads", std::vector<int64_t>{1, 2})
                  .input<float>({3}, x).run();
  ASSERT_TRUE(edge.is_ok());
  EXPECT_EQ(values<float>(edge->at(0)), (std::vector<float>{1, 1, 2, 3, 3, 3}));
  auto crop = TensorOpTest("Pad", 13).input<float>({3}, x).input<int64_t>({2}, {-1, 1}).run();
  ASSERT_TRUE(crop.is_ok());
  EXPECT_EQ(values<float>(crop->at(0)), (std::vector<float>{2, 3, 0}));
  // No padding: the input's values (shared, not copied); a shift keeps the shape but is no copy.
  auto none = TensorOpTest("Pad", 13).input<float>({3}, x).input<int64_t>({2}, {0, 0}).run();
  ASSERT_TRUE(none.is_ok());
  EXPECT_EQ(values<float>(none->at(0)), x);
  auto shift = TensorOpTest("Pad", 13).input<float>({3}, x).input<int64_t>({2}, {1, -1}).run();
  ASSERT_TRUE(shift.is_ok());
  EXPECT_EQ(values<float>(shift->at(0)), (std::vector<float>{0, 1, 2}));
  EXPECT_FALSE(TensorOpTest("Pad", 13).input<float>({3}, x).input<int64_t>({2}, {-4, 0}).run().is_ok());
  EXPECT_FALSE(TensorOpTest("Pad", 13).input<float>({3}, x).input<int64_t>({1}, {1}).run().is_ok());
}

TEST(TensorShape, StartEndClampAndSize) {
  const std::vector<float> x(24);
  auto s = TensorOpTest("Shape", 15).attr("start", -2).attr("end", 100).input<float>({2, 3, 4}, x).run();
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  EXPECT_EQ(values<int64_t>(s->at(0)), (std::vector<int64_t>{3, 4}));
  auto empty = TensorOpTest("Shape", 15).attr("start", 2).attr("end", 1).input<float>({2, 3, 4}, x).run();
  ASSERT_TRUE(empty.is_ok());
  EXPECT_EQ(empty->at(0).shape(), (std::vector<int64_t>{0}));
  auto size = TensorOpTest("Size", 13).input<bool>({2, 3}, std::vector<bool>(6)).run();
  ASSERT_TRUE(size.is_ok());
  EXPECT_EQ(values<int64_t>(size->at(0)), (std::vector<int64_t>{6}));
}

TEST(TensorConstant, EachValueAttribute) {
  auto ints = TensorOpTest("Constant", 13).attr("value_ints", std::vector<int64_t>{4, 5}).run();
  ASSERT_TRUE(ints.is_ok()) << ints.status().message();
  EXPECT_EQ(values<int64_t>(ints->at(0)), (std::vector<int64_t>{4, 5}));
  auto f = TensorOpTest("Constant", 13).attr("value_float", 2.5f).run();
  ASSERT_TRUE(f.is_ok());
  EXPECT_EQ(f->at(0).shape(), (std::vector<int64_t>{}));
  auto strs = TensorOpTest("Constant", 13).attr("value_strings", std::vector<std::string>{"x", "y"}).run();
  ASSERT_TRUE(strs.is_ok());
  EXPECT_EQ(values<std::string>(strs->at(0)), (std::vector<std::string>{"x", "y"}));
  EXPECT_FALSE(TensorOpTest("Constant", 13).run().is_ok());
  EXPECT_FALSE(TensorOpTest("Constant", 13).attr("value_int", int64_t{1}).attr("value_float", 1.0f).run().is_ok());
}

TEST(TensorConstantOfShape, FillsWithValue) {
  auto out = TensorOpTest("ConstantOfShape", 9).attr("value", make<int32_t>({1}, {7}))
                 .input<int64_t>({2}, {2, 2}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<int32_t>(out->at(0)), (std::vector<int32_t>{7, 7, 7, 7}));
  auto zero = TensorOpTest("ConstantOfShape", 9).input<int64_t>({1}, {0}).run();
  ASSERT_TRUE(zero.is_ok());
  EXPECT_EQ(zero->at(0).dtype(), DataType::kFloat);
  EXPECT_EQ(zero->at(0).numel(), 0);
  EXPECT_FALSE(TensorOpTest("ConstantOfShape", 9).input<int64_t>({1}, {-1}).run().is_ok());
}

TEST(TensorRange, LengthsAndValues) {
  auto f = TensorOpTest("Range", 11).input<float>({}, {1}).input<float>({}, {2}).input<float>({}, {0.3f}).run();
  ASSERT_TRUE(f.is_ok()) << f.status().message();
  EXPECT_EQ(f->at(0).numel(), 4);  // ceil(1 / 0.3)
  auto i = TensorOpTest("Range", 11).input<int32_t>({}, {10}).input<int32_t>({}, {4}).input<int32_t>({}, {-3}).run();
  ASSERT_TRUE(i.is_ok());
  EXPECT_EQ(values<int32_t>(i->at(0)), (std::vector<int32_t>{10, 7}));
  auto none = TensorOpTest("Range", 11).input<int64_t>({}, {0}).input<int64_t>({}, {5}).input<int64_t>({}, {-1}).run();
  ASSERT_TRUE(none.is_ok());
  EXPECT_EQ(none->at(0).numel(), 0);
  EXPECT_FALSE(TensorOpTest("Range", 11).input<int64_t>({}, {0}).input<int64_t>({}, {5}).input<int64_t>({}, {0})
                   .run().is_ok());
}

TEST(TensorEyeLike, DiagonalOffsetAndType) {
  auto out = TensorOpTest("EyeLike", 9).attr("k", 1).attr("dtype", int64_t{7})
                 .input<float>({2, 3}, std::vector<float>(6)).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(values<int64_t>(out->at(0)), (std::vector<int64_t>{0, 1, 0, 0, 0, 1}));
  auto below = TensorOpTest("EyeLike", 9).attr("k", -1).input<bool>({3, 2}, std::vector<bool>(6)).run();
  ASSERT_TRUE(below.is_ok());
  EXPECT_EQ(values<bool>(below->at(0)), (std::vector<bool>{false, false, true, false, false, true}));
}

TEST(TensorOneHot, AxisNegativeAndOutOfRangeIndices) {
  // indices [1, -1, 5], depth 3, values [0, 1], axis -1
  auto out = TensorOpTest("OneHot", 11).input<int64_t>({3}, {1, -1, 5}).input<float>({}, {3})
                 .input<int32_t>({2}, {0, 1}).run();
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at(0).shape(), (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(values<int32_t>(out->at(0)), (std::vector<int32_t>{0, 1, 0, 0, 0, 1, 0, 0, 0}));
  auto axis0 = TensorOpTest("OneHot", 11).attr("axis", 0).input<int64_t>({2}, {0, 2}).input<int64_t>({}, {3})
                   .input<std::string>({2}, {"off", "on"}).run();
  ASSERT_TRUE(axis0.is_ok());
  EXPECT_EQ(values<std::string>(axis0->at(0)),
            (std::vector<std::string>{"on", "off", "off", "off", "off", "on"}));
}

}  // namespace
}  // namespace twinrt::tensor_testing
