// The pipeline sweep's value comparison (cli/pipeline_parity.h): list items compared one by
// one, a different item count or shape counted as a shape mismatch, empty lists skipped.
#include <gtest/gtest.h>

#include "cli/pipeline_parity.h"
#include "parity/policy.h"

namespace twinrt::cli {
namespace {

using pipeline::PipelineValue;

Tensor floats(std::vector<int64_t> shape, float value) {
  Tensor t = Tensor::create(DataType::kFloat, shape).value();
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = value;
  return t;
}

TEST(PipelineParity, ListItemsAreComparedOneByOne) {
  const PipelineValue ref = PipelineValue::list({floats({2}, 1), floats({3}, 2)});
  const PipelineValue test = PipelineValue::list({floats({2}, 1), floats({3}, 2.5f)});
  auto m = compare_pipeline_value(ref, test, {});
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  ASSERT_TRUE(m->has_value());
  EXPECT_EQ((*m)->count, 5);
  EXPECT_DOUBLE_EQ((*m)->max_abs, 0.5);
  EXPECT_EQ((*m)->shape_mismatches, 0);
}

TEST(PipelineParity, AnotherItemCountOrShapeIsAShapeMismatchThatFails) {
  const PipelineValue two = PipelineValue::list({floats({2}, 1), floats({2}, 1)});
  const PipelineValue one = PipelineValue::list({floats({2}, 1)});
  const PipelineValue other_shape = PipelineValue::list({floats({2}, 1), floats({3}, 1)});
  for (const PipelineValue* test : {&one, &other_shape}) {
    auto m = compare_pipeline_value(two, *test, {});
    ASSERT_TRUE(m.is_ok() && m->has_value());
    EXPECT_EQ((*m)->shape_mismatches, 1);
    EXPECT_EQ((*m)->count, 0);
    EXPECT_FALSE(parity::evaluate(**m, parity::builtin_policy("fp32").value()).passed);
  }
  // Nothing on either side: nothing to compare.
  auto none = compare_pipeline_value(PipelineValue::list({}), PipelineValue::list({}), {});
  ASSERT_TRUE(none.is_ok());
  EXPECT_FALSE(none->has_value());
}

TEST(PipelineParity, DifferentTextFailsThePolicy) {
  const PipelineValue a = PipelineValue::single(pipeline::string_tensor({"cat", "dog"}).value());
  const PipelineValue b = PipelineValue::single(pipeline::string_tensor({"cat", "dot"}).value());
  auto m = compare_pipeline_value(a, b, {});
  ASSERT_TRUE(m.is_ok() && m->has_value());
  EXPECT_EQ((*m)->exact_mismatches, 1);
  EXPECT_FALSE(parity::evaluate(**m, parity::builtin_policy("fp32").value()).passed);
}

}  // namespace
}  // namespace twinrt::cli
