// Unit tests of the CLI's helpers: flag parsing, input generation, value descriptions,
// latency percentiles, exit-code mapping, external-data discovery, model card.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "cli/exit_status.h"
#include "cli/input_binding.h"
#include "cli/latency_stats.h"
#include "cli/model_card.h"
#include "cli/session_flags.h"
#include "cli/value_printing.h"
#include "io/file_io.h"
#include "io/input_values.h"
#include "io/npy.h"

namespace twinrt::cli {
namespace {

const std::string kData = TWINRT_CLI_TEST_DATA;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(SessionFlags, SplitsAssignmentsAndRejectsBadOnes) {
  auto ok = split_assignment("batch=4", "--dim");
  ASSERT_TRUE(ok.is_ok());
  EXPECT_EQ(ok->first, "batch");
  EXPECT_EQ(ok->second, "4");
  auto with_eq = split_assignment("x=a=b.npy", "--input");  // the first '=' splits
  EXPECT_EQ(with_eq->second, "a=b.npy");
  for (const char* bad : {"batch", "=4", "batch=", ""})
    EXPECT_TRUE(contains(split_assignment(bad, "--dim").status().message(), "--dim expects NAME=VALUE")) << bad;
}

TEST(SessionFlags, ParsesIntegersStrictly) {
  EXPECT_EQ(*parse_integer("42", "n", false), 42);
  EXPECT_EQ(*parse_integer("-3", "n", true), -3);
  EXPECT_FALSE(parse_integer("-3", "n", false).is_ok());
  EXPECT_FALSE(parse_integer("4x", "n", false).is_ok());
  EXPECT_FALSE(parse_integer("", "n", false).is_ok());
  EXPECT_FALSE(parse_integer("99999999999999999999", "n", false).is_ok());
}

TEST(SessionFlags, BuildsOptionsAndNamesTheBadFlag) {
  SessionFlags flags;
  flags.mode = "reference";
  flags.threads = 3;
  flags.dims = {"batch=2", "seq=7"};
  auto o = to_session_options(flags);
  ASSERT_TRUE(o.is_ok());
  EXPECT_EQ(o->mode, Mode::kReference);
  EXPECT_EQ(o->threads, 3);
  EXPECT_EQ(o->dim_overrides.at("seq"), 7);

  flags.threads = -1;
  EXPECT_TRUE(contains(to_session_options(flags).status().message(), "--threads"));
  flags.threads = 1;
  flags.mode = "quick";
  EXPECT_TRUE(contains(to_session_options(flags).status().message(), "--mode"));
}

TEST(RandomInputs, SymbolicDimsUseOverridesOrOne) {
  ir::Shape shape = {ir::Dim::named("batch"), ir::Dim::of(3), ir::Dim::named("other"), ir::Dim{}};
  auto v = io::random_value(ir::TypeInfo::tensor(DataType::kInt32, shape), {{"batch", 5}}, 1, "x");
  ASSERT_TRUE(v.is_ok());
  EXPECT_EQ(v->tensor.shape(), (std::vector<int64_t>{5, 3, 1, 1}));
  for (int64_t i = 0; i < v->tensor.numel(); ++i) {
    EXPECT_GE(v->tensor.data<int32_t>()[i], 0);
    EXPECT_LT(v->tensor.data<int32_t>()[i], 10);
  }
}

TEST(RandomInputs, SequencesOptionalsAndUnshapedInputs) {
  auto elem = ir::TypeInfo::tensor(DataType::kFloat, ir::shape_of({2}));
  auto seq = io::random_value(ir::TypeInfo::sequence_of(elem), {}, 1, "s");
  ASSERT_TRUE(seq.is_ok());
  ASSERT_TRUE(seq->is_sequence());
  EXPECT_EQ(seq->sequence.size(), 1u);
  auto opt = io::random_value(ir::TypeInfo::optional_of(elem), {}, 1, "o");
  ASSERT_TRUE(opt.is_ok());
  ASSERT_TRUE(opt->optional);
  EXPECT_TRUE(opt->optional->is_tensor());
  auto unshaped = io::random_value(ir::TypeInfo::tensor(DataType::kFloat), {}, 1, "u");
  EXPECT_TRUE(contains(unshaped.status().message(), "--input u=FILE"));
}

TEST(InputFiles, NpyIsCheckedAgainstTheDeclaration) {
  ir::ValueInfo decl{"x", ir::TypeInfo::tensor(DataType::kFloat, ir::Shape{ir::Dim::named("batch"), ir::Dim::of(3)}), ""};
  auto ok = io::load_input_file(kData + "/x_2x3_f32.npy", decl);
  ASSERT_TRUE(ok.is_ok()) << ok.status().message();
  EXPECT_EQ(ok->tensor.data<float>()[5], 5.0f);
  auto wrong_dtype = io::load_input_file(kData + "/x_2x3_i64.npy", decl);
  EXPECT_EQ(wrong_dtype.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(contains(wrong_dtype.status().message(), "expected dtype float32, got int64"));
  auto wrong_rank = io::load_input_file(kData + "/x_5_f32.npy", decl);
  EXPECT_TRUE(contains(wrong_rank.status().message(), "expected shape [batch,3], got [5]"));
  // A tensor given for an optional input is wrapped.
  ir::ValueInfo opt{"o", ir::TypeInfo::optional_of(ir::TypeInfo::tensor(DataType::kFloat)), ""};
  auto wrapped = io::load_input_file(kData + "/x_5_f32.npy", opt);
  ASSERT_TRUE(wrapped.is_ok());
  EXPECT_TRUE(wrapped->is_optional());
}

TEST(InputFiles, Uint16BitsAreReadAsDeclaredBfloat16) {
  ir::ValueInfo decl{"b", ir::TypeInfo::tensor(DataType::kBFloat16, ir::shape_of({2})), ""};
  const std::string path = ::testing::TempDir() + "twinrt_cli_bf16_bits.npy";
  // 0x3f80 is bfloat16 1.0, 0xc000 is -2.0.
  ASSERT_TRUE(io::write_npy_file(path, *Tensor::from_vector<uint16_t>({2}, {0x3f80, 0xc000})).is_ok());
  auto v = io::load_input_file(path, decl);
  ASSERT_TRUE(v.is_ok()) << v.status().message();
  ASSERT_EQ(v->tensor.dtype(), DataType::kBFloat16);
  EXPECT_EQ(describe_tensor(v->tensor), "bfloat16[2] min=-2 max=1 mean=-0.5");
  std::remove(path.c_str());
}

TEST(ValuePrinting, DescribesTensorsSequencesAndOptionals) {
  auto t = *Tensor::from_vector<float>({2}, {1, 3});
  EXPECT_EQ(describe_tensor(t), "float32[2] min=1 max=3 mean=2");
  auto lines = describe_value(Value::of_sequence({t, t}, DataType::kFloat));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "sequence of 2 float32 tensors");
  EXPECT_EQ(lines[2], "  [1] float32[2] min=1 max=3 mean=2");
  EXPECT_EQ(describe_value(Value::of_optional(nullptr))[0], "optional: empty");
  EXPECT_EQ(describe_value(Value::of_optional(std::make_shared<const Value>(Value::of(t))))[0],
            "optional holding float32[2] min=1 max=3 mean=2");
}

TEST(LatencyStats, NearestRankPercentiles) {
  std::vector<double> samples;
  for (int i = 100; i >= 1; --i) samples.push_back(i);  // unsorted on purpose
  LatencySummary s = summarize_latencies(samples);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 100);
  EXPECT_EQ(s.p50, 50);
  EXPECT_EQ(s.p90, 90);
  EXPECT_EQ(s.p99, 99);
  EXPECT_EQ(s.mean, 50.5);
  LatencySummary one = summarize_latencies({7});
  EXPECT_EQ(one.p50, 7);
  EXPECT_EQ(one.p99, 7);
  EXPECT_EQ(summarize_latencies({}).p50, 0);
}

TEST(ExitStatus, BadInputIsTwoFailureIsOne) {
  EXPECT_EQ(exit_code_for(Status::ok()), kExitOk);
  EXPECT_EQ(exit_code_for(invalid_argument("x")), kExitBadInput);
  EXPECT_EQ(exit_code_for(invalid_model("x")), kExitBadInput);
  EXPECT_EQ(exit_code_for(io_error("x")), kExitBadInput);
  EXPECT_EQ(exit_code_for(not_implemented("x")), kExitFailure);
  EXPECT_EQ(exit_code_for(internal_error("x")), kExitFailure);
}

TEST(ModelCard, HasTheContractAndTheOwnersSections) {
  ModelSummary s;
  s.path = "/models/det.onnx";
  s.file_size = 2048;
  s.sha256 = "abc123";
  s.opsets = {{"ai.onnx", 17}};
  s.inputs = {IoSummary{"image", "tensor(float32)[batch,3,H,W]", {{0, "batch"}, {2, "H"}, {3, "W"}}}};
  s.outputs = {IoSummary{"boxes", "tensor(float32)[N,4]", {{0, "N"}}}};
  const std::string md = render_model_card(s);
  for (const char* needle : {"# det.onnx", "2.0 KiB", "`abc123`", "ai.onnx 17", "## Inputs",
                             "| `image` | `tensor(float32)[batch,3,H,W]` | axis 0 `batch`, axis 2 `H`, axis 3 `W` |",
                             "## Outputs", "## Preprocessing", "## Postprocessing (kept outside the graph)",
                             "## Export versions", "To be filled in by the model's owner"})
    EXPECT_TRUE(contains(md, needle)) << needle << "\n" << md;
}

}  // namespace
}  // namespace twinrt::cli
