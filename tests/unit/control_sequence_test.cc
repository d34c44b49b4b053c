// Sequence and optional ops: positions (negative, end, out of range), split/concat,
// SequenceMap, and empty optionals.
#include <gtest/gtest.h>

#include "control_model_builder.h"

namespace twinrt {
namespace {

using namespace control_testing;

const DataType kF = DataType::kFloat;
const DataType kI64 = DataType::kInt64;

std::vector<float> first_values(const Tensor& t) { return values_of<float>(t); }

TEST(ControlSequence, InsertAtAndLengthHonourNegativePositions) {
  // [x, y] with z inserted at -1 (before the last) is [x, z, y]; position -1 reads y.
  auto g = graph({node("SequenceConstruct", {"x", "y"}, {"s"}), node("SequenceInsert", {"s", "z", "pos"}, {"s2"}),
                  node("SequenceAt", {"s2", "one"}, {"second"}), node("SequenceAt", {"s2", "pos"}, {"last"}),
                  node("SequenceLength", {"s2"}, {"n"})},
                 {tensor_info("x", kF), tensor_info("y", kF), tensor_info("z", kF), tensor_info("pos", kI64),
                  tensor_info("one", DataType::kInt32)},
                 {any_info("s2"), any_info("second"), any_info("last"), any_info("n")});
  auto out = run_graph(g, 11, {{"x", val<float>({1}, {1})}, {"y", val<float>({1}, {2})}, {"z", val<float>({1}, {3})},
                               {"pos", val<int64_t>({}, {-1})}, {"one", val<int32_t>({}, {1})}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const Value& s2 = out->at("s2");
  ASSERT_TRUE(s2.is_sequence());
  ASSERT_EQ(s2.sequence.size(), 3u);
  EXPECT_EQ(first_values(s2.sequence[1]), (std::vector<float>{3}));
  EXPECT_EQ(first_values(out->at("second").tensor), (std::vector<float>{3}));
  EXPECT_EQ(first_values(out->at("last").tensor), (std::vector<float>{2}));
  EXPECT_EQ(values_of<int64_t>(out->at("n").tensor), (std::vector<int64_t>{3}));
}

TEST(ControlSequence, OutOfRangePositionsAreErrors) {
  auto at = graph({node("SequenceAt", {"s", "pos"}, {"t"})}, {sequence_info("s", kF), tensor_info("pos", kI64)},
                  {any_info("t")});
  const Value seq = Value::of_sequence({make<float>({1}, {1}), make<float>({1}, {2})}, kF);
  auto out = run_graph(at, 11, {{"s", seq}, {"pos", val<int64_t>({}, {2})}});
  ASSERT_FALSE(out.is_ok());
  EXPECT_NE(out.status().message().find("out of range [-2, 1]"), std::string::npos) << out.status().message();
  auto erase = graph({node("SequenceErase", {"s"}, {"t"})}, {sequence_info("s", kF)}, {any_info("t")});
  auto empty = run_graph(erase, 11, {{"s", Value::of_sequence({}, kF)}});
  ASSERT_FALSE(empty.is_ok());
  EXPECT_NE(empty.status().message().find("empty sequence"), std::string::npos) << empty.status().message();
}

TEST(ControlSequence, EraseDefaultsToTheLastElement) {
  auto g = graph({node("SequenceErase", {"s"}, {"t"})}, {sequence_info("s", kF)}, {any_info("t")});
  const Value seq = Value::of_sequence({make<float>({1}, {1}), make<float>({1}, {2})}, kF);
  auto out = run_graph(g, 11, {{"s", seq}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  ASSERT_EQ(out->at("t").sequence.size(), 1u);
  EXPECT_EQ(first_values(out->at("t").sequence[0]), (std::vector<float>{1}));
}

TEST(ControlSequence, SplitByChunkSizeThenStackOnANewLastAxis) {
  // x = [[0..4],[5..9]] split along axis 1 in chunks of 2: widths 2, 2, 1.
  auto split = graph({node("SplitToSequence", {"x", "chunk"}, {"s"}, {int_attr("axis", 1)})},
                     {tensor_info("x", kF, {{2, 5}}), tensor_info("chunk", kI64, {{}})}, {any_info("s")});
  auto out = run_graph(split, 11, {{"x", val<float>({2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9})},
                                   {"chunk", val<int64_t>({}, {2})}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const auto& parts = out->at("s").sequence;
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2].shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(first_values(parts[2]), (std::vector<float>{4, 9}));

  // Stacking [a0, a1] (each [2]) on axis -1 gives [[a0[0], a1[0]], [a0[1], a1[1]]].
  auto stack = graph({node("ConcatFromSequence", {"s"}, {"y"}, {int_attr("axis", -1), int_attr("new_axis", 1)})},
                     {sequence_info("s", kF)}, {any_info("y")});
  auto stacked = run_graph(stack, 11, {{"s", Value::of_sequence({make<float>({2}, {1, 2}), make<float>({2}, {3, 4})}, kF)}});
  ASSERT_TRUE(stacked.is_ok()) << stacked.status().message();
  EXPECT_EQ(stacked->at("y").tensor.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(first_values(stacked->at("y").tensor), (std::vector<float>{1, 3, 2, 4}));
}

TEST(ControlSequence, SplitWithoutSplitDropsTheAxisWhenAsked) {
  auto g = graph({node("SplitToSequence", {"x"}, {"s"}, {int_attr("axis", 0), int_attr("keepdims", 0)})},
                 {tensor_info("x", kF, {{3, 2}})}, {any_info("s")});
  auto out = run_graph(g, 11, {{"x", val<float>({3, 2}, {1, 2, 3, 4, 5, 6})}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const auto& parts = out->at("s").sequence;
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[1].shape(), (std::vector<int64_t>{2}));
  EXPECT_EQ(first_values(parts[1]), (std::vector<float>{3, 4}));
}

TEST(ControlSequence, SequenceMapPairsElementsAndPassesTensorsWhole) {
  auto body = graph({node("Add", {"e", "t"}, {"r"})}, {tensor_info("e", kF), tensor_info("t", kF)}, {any_info("r")},
                    "body");
  auto g = graph({node("SequenceMap", {"s", "t"}, {"out"}, {graph_attr("body", std::move(body))})},
                 {sequence_info("s", kF), tensor_info("t", kF, {{1}})}, {any_info("out")});
  const Value seq = Value::of_sequence({make<float>({1}, {1}), make<float>({1}, {2})}, kF);
  auto out = run_graph(g, 17, {{"s", seq}, {"t", val<float>({1}, {10})}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const auto& r = out->at("out").sequence;
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(first_values(r[0]), (std::vector<float>{11}));
  EXPECT_EQ(first_values(r[1]), (std::vector<float>{12}));
}

TEST(ControlOptional, EmptyOptionalHasNoElementAndCannotBeUnwrapped) {
  auto g = graph({node("Optional", {}, {"o"}, {type_attr("type", ir::TypeInfo::tensor(kF))}),
                  node("OptionalHasElement", {"o"}, {"has"})},
                 {}, {any_info("o"), any_info("has")});
  auto out = run_graph(g, 15, {});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_TRUE(out->at("o").is_optional());
  EXPECT_EQ(out->at("o").optional, nullptr);
  EXPECT_EQ(values_of<bool>(out->at("has").tensor), (std::vector<bool>{false}));

  auto get = graph({node("OptionalGetElement", {"o"}, {"v"})},
                   {typed("o", ir::TypeInfo::optional_of(ir::TypeInfo::tensor(kF)))}, {any_info("v")});
  auto empty = run_graph(get, 15, {{"o", Value::of_optional(nullptr)}});
  ASSERT_FALSE(empty.is_ok());
  EXPECT_NE(empty.status().message().find("empty"), std::string::npos) << empty.status().message();
  auto full = run_graph(get, 15, {{"o", Value::of_optional(std::make_shared<const Value>(val<float>({1}, {4})))}});
  ASSERT_TRUE(full.is_ok()) << full.status().message();
  EXPECT_EQ(first_values(full->at("v").tensor), (std::vector<float>{4}));
}

}  // namespace
}  // namespace twinrt
