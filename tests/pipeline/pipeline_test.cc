// The pipeline runner: file validation, contracts, per-item fan-out with batching, and
// the glue steps on inputs whose right answers are known by construction.
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "pipeline/batching.h"
#include "pipeline/geometry.h"
#include "pipeline/pipeline.h"

namespace twinrt::pipeline {
namespace {

const std::string kCliData = std::string(TWINRT_SOURCE_DIR) + "/tests/cli/data";

Tensor floats(std::vector<int64_t> shape, std::vector<float> values) {
  return Tensor::from_vector<float>(std::move(shape), values).value();
}

Status parse_error(const std::string& json) { return parse_pipeline(json, kCliData).status(); }

TEST(PipelineSpec, RejectsACycleNamingItsStages) {
  Status st = parse_error(R"({"inputs": ["x"], "outputs": ["b"], "stages": [
    {"name": "one", "step": "top_k", "inputs": {"scores": "b"}, "outputs": {"labels": "a", "probs": "p1"}},
    {"name": "two", "step": "top_k", "inputs": {"scores": "a"}, "outputs": {"labels": "b", "probs": "p2"}}]})");
  EXPECT_NE(st.message().find("cycle: one -> two -> one"), std::string::npos) << st.message();
}

TEST(PipelineSpec, RejectsUnknownStepsMissingModelsAndUnknownValues) {
  Status unknown = parse_error(R"({"inputs": ["x"], "outputs": ["y"], "stages": [
    {"name": "s", "step": "frobnicate", "inputs": {"a": "x"}, "outputs": {"b": "y"}}]})");
  EXPECT_NE(unknown.message().find("stage 's': unknown step 'frobnicate' (built-in steps: "), std::string::npos)
      << unknown.message();
  Status missing = parse_error(R"({"inputs": ["x"], "outputs": ["y"], "stages": [
    {"name": "m", "model": "absent.onnx", "inputs": {"x": "x"}, "outputs": {"z": "y"}}]})");
  EXPECT_NE(missing.message().find("stage 'm': missing model: "), std::string::npos) << missing.message();
  EXPECT_NE(missing.message().find("absent.onnx"), std::string::npos) << missing.message();
  Status unread = parse_error(R"({"inputs": ["x"], "outputs": ["y"], "stages": [
    {"name": "m", "model": "symbolic_add.onnx", "inputs": {"x": "nowhere"}, "outputs": {"z": "y"}}]})");
  EXPECT_NE(unread.message().find("stage 'm' input 'x' reads 'nowhere', which no stage writes"), std::string::npos)
      << unread.message();
  Status port = parse_error(R"({"inputs": ["x"], "outputs": ["y"], "stages": [
    {"name": "s", "step": "ctc_decode", "params": {"dictionary": "x"}, "inputs": {"prob": "x"}, "outputs": {"text": "y", "score": "s"}}]})");
  EXPECT_NE(port.message().find("step 'ctc_decode' needs input 'probs'"), std::string::npos) << port.message();
}

TEST(PipelineSpec, RejectsTwoWritersOfOneValue) {
  Status st = parse_error(R"({"inputs": ["x"], "outputs": ["y"], "stages": [
    {"name": "a", "model": "symbolic_add.onnx", "inputs": {"x": "x"}, "outputs": {"z": "y"}},
    {"name": "b", "model": "symbolic_add.onnx", "inputs": {"x": "x"}, "outputs": {"z": "y"}}]})");
  EXPECT_NE(st.message().find("value 'y' is written by both stage 'a' and stage 'b'"), std::string::npos) << st.message();
}

TEST(Contract, NamesTheDimTheSymbolAndTheRange) {
  Contract c = parse_contract(nlohmann::json::parse(R"({"dtype": "float32", "shape": [1, 3, "H"], "range": [0, 1]})")).value();
  DimBindings bindings;
  EXPECT_TRUE(check_contract(c, "a", PipelineValue::single(floats({1, 3, 2}, {0, 0, 0, 1, 1, 1})), bindings).is_ok());
  Status channels = check_contract(c, "b", PipelineValue::single(floats({1, 4, 2}, std::vector<float>(8))), bindings);
  EXPECT_EQ(channels.message(), "tensor 'b': expected shape [1,3,H], got float32[1,4,2] (dim 1 is 4, not 3)");
  Status symbol = check_contract(c, "c", PipelineValue::single(floats({1, 3, 1}, {0, 0, 0})), bindings);
  EXPECT_EQ(symbol.message(), "tensor 'c': expected shape [1,3,H] with H=2 (as in 'a'), got float32[1,3,1]");
  Status range = check_contract(c, "d", PipelineValue::single(floats({1, 3, 2}, {0, 0, 0, 0, 0, 2})), bindings);
  EXPECT_EQ(range.message(), "tensor 'd': expected values in [0, 1], got min 0 max 2");
  // Symbols first seen in a list's items are bound per item.
  Contract any = parse_contract(nlohmann::json::parse(R"({"shape": ["W"]})")).value();
  DimBindings fresh;
  EXPECT_TRUE(check_contract(any, "e", PipelineValue::list({floats({1}, {0}), floats({2}, {0, 0})}), fresh).is_ok());
  EXPECT_FALSE(parse_contract(nlohmann::json::parse(R"({"shape": [1.5]})")).is_ok());
}

TEST(Batching, SplitUndoesConcat) {
  Tensor a = floats({1, 2}, {1, 2}), b = floats({2, 2}, {3, 4, 5, 6});
  Tensor joined = concat_batch({a, b}).value();
  EXPECT_EQ(joined.shape(), (std::vector<int64_t>{3, 2}));
  std::vector<Tensor> parts = split_batch(joined, {1, 2}).value();
  EXPECT_EQ(parts[1].data<float>()[3], 6.0f);
  EXPECT_FALSE(concat_batch({a, floats({1, 3}, {0, 0, 0})}).is_ok());
  EXPECT_FALSE(split_batch(joined, {1, 1}).is_ok());
}

// A model stage mapped over a list: items of equal shape share a run (at most `batch`),
// and every item's result comes back in its own place.
TEST(Pipeline, MapsAModelOverItemsInBatchesOfEqualShape) {
  auto spec = parse_pipeline(R"({"inputs": ["rows"], "outputs": ["sums"], "stages": [
    {"name": "add", "model": "symbolic_add.onnx", "map": true, "batch": 2, "inputs": {"x": "rows"}, "outputs": {"z": "sums"}}],
    "contracts": {"sums": {"dtype": "float32", "shape": [1, 3]}}})",
                             kCliData);
  ASSERT_TRUE(spec.is_ok()) << spec.status().message();
  auto p = Pipeline::create(std::move(spec).value(), {});
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  std::vector<Tensor> rows;
  for (int i = 0; i < 5; ++i) rows.push_back(floats({1, 3}, {float(i), float(10 * i), 0}));
  auto result = (*p)->run({{"rows", PipelineValue::list(rows)}});
  ASSERT_TRUE(result.is_ok()) << result.status().message();
  const PipelineValue& sums = result->outputs.at("sums");
  ASSERT_EQ(sums.items.size(), 5u);
  EXPECT_EQ(result->stages[0].model_calls, 3);  // 2 + 2 + 1
  auto single = (*p)->run({{"rows", PipelineValue::list({rows[3]})}});
  ASSERT_TRUE(single.is_ok());
  for (int k = 0; k < 3; ++k) EXPECT_EQ(sums.items[3].data<float>()[k], single->outputs.at("sums").tensor().data<float>()[k]);
  // The same element of different items differs: no item got another's result.
  EXPECT_NE(sums.items[1].data<float>()[1], sums.items[4].data<float>()[1]);
}

TEST(Pipeline, AContractViolationNamesStageAndTensor) {
  auto spec = parse_pipeline(R"({"inputs": ["x"], "outputs": ["y"], "stages": [
    {"name": "add", "model": "symbolic_add.onnx", "inputs": {"x": "x"}, "outputs": {"z": "y"}}],
    "contracts": {"y": {"shape": [1, 4]}}})",
                             kCliData);
  auto p = Pipeline::create(std::move(spec).value(), {});
  ASSERT_TRUE(p.is_ok());
  Status st = (*p)->run({{"x", PipelineValue::single(floats({1, 3}, {1, 2, 3}))}}).status();
  EXPECT_EQ(st.message(), "stage 'add': contract violated: tensor 'y': expected shape [1,4], got float32[1,3] (dim 1 is 3, not 4)");
}

// Streaming: the value a run ends with is the next run's input; zeros at first and after
// reset_state(). symbolic_add adds a constant c, so run k returns k * c.
TEST(Pipeline, CarriesStateAcrossRuns) {
  auto spec = load_pipeline_file(std::string(TWINRT_SOURCE_DIR) + "/tests/pipeline/data/accumulate.json");
  ASSERT_TRUE(spec.is_ok()) << spec.status().message();
  auto p = Pipeline::create(std::move(spec).value(), {});
  ASSERT_TRUE(p.is_ok());
  std::vector<float> firsts;
  for (int run = 0; run < 3; ++run) firsts.push_back((*p)->run({}).value().outputs.at("next").tensor().data<float>()[0]);
  ASSERT_NE(firsts[0], 0.0f);
  EXPECT_EQ(firsts[1], 2 * firsts[0]);
  EXPECT_EQ(firsts[2], 3 * firsts[0]);
  (*p)->reset_state();
  EXPECT_EQ((*p)->run({}).value().outputs.at("next").tensor().data<float>()[0], firsts[0]);
  EXPECT_NE(parse_error(R"({"inputs": ["acc"], "outputs": ["acc"], "stages": [
    {"name": "add", "model": "symbolic_add.onnx", "inputs": {"x": "acc"}, "outputs": {"z": "next"}}],
    "state": [{"from": "nope", "to": "acc"}]})").message().find("state from 'nope': no stage writes it"), std::string::npos);
}

// Two branches from x joined by a later stage, listed out of order in the file:
// left = x + bias, right = x + x, both = left + right, then a stage on both.
const char* kBranches = R"({"inputs": ["x"], "outputs": ["both", "twice"], PARALLEL "stages": [
  {"name": "join", "model": "../../pipeline/data/add_two.onnx", "inputs": {"a": "left", "b": "right"}, "outputs": {"z": "both"}},
  {"name": "right", "model": "../../pipeline/data/add_two.onnx", "inputs": {"a": "x", "b": "x"}, "outputs": {"z": "right"}},
  {"name": "after", "model": "symbolic_add.onnx", "inputs": {"x": "both"}, "outputs": {"z": "twice"}},
  {"name": "left", "model": "symbolic_add.onnx", MAP"inputs": {"x": "x"}, "outputs": {"z": "left"}}],
  "contracts": {CONTRACTS}})";

std::unique_ptr<Pipeline> branches(bool parallel, const std::string& map = "", const std::string& contracts = "") {
  std::string json = kBranches;
  auto put = [&](const std::string& key, const std::string& text) { json.replace(json.find(key), key.size(), text); };
  put("PARALLEL", std::string("\"parallel\": ") + (parallel ? "true," : "false,"));
  put("MAP", map);
  put("CONTRACTS", contracts);
  auto spec = parse_pipeline(json, kCliData);
  EXPECT_TRUE(spec.is_ok()) << spec.status().message();
  auto p = Pipeline::create(std::move(spec).value(), {});
  EXPECT_TRUE(p.is_ok()) << p.status().message();
  return std::move(p).value();
}

std::vector<std::string> stage_names(const std::vector<StageSpec>& stages) {
  std::vector<std::string> names;
  for (const StageSpec& s : stages) names.push_back(s.name + "@" + std::to_string(s.wave));
  return names;
}

// Waves, then file order within a wave: independent of "parallel".
TEST(Pipeline, StagesRunInWavesInFileOrder) {
  const std::vector<std::string> expected = {"right@0", "left@0", "join@1", "after@2"};
  EXPECT_EQ(stage_names(branches(true)->spec().stages), expected);
  EXPECT_EQ(stage_names(branches(false)->spec().stages), expected);
  EXPECT_TRUE(branches(true)->parallel());
  EXPECT_FALSE(branches(false)->parallel());
  EXPECT_NE(parse_error(R"({"inputs": ["x"], "outputs": ["x"], "parallel": 1, "stages": [
    {"name": "a", "model": "symbolic_add.onnx", "inputs": {"x": "x"}, "outputs": {"z": "y"}}]})").message().find(
                "'parallel' must be true or false"),
            std::string::npos);
}

TEST(Pipeline, ParallelBranchesGiveTheSameValuesAsSequential) {
  const ValueMap inputs = {{"x", PipelineValue::single(floats({2, 3}, {1, 2, 3, 4, 5, 6}))}};
  RunResult on = branches(true)->run(inputs).value();
  RunResult off = branches(false)->run(inputs).value();
  ASSERT_EQ(on.stages.size(), 4u);
  ASSERT_EQ(off.stages.size(), 4u);
  for (size_t i = 0; i < on.stages.size(); ++i) {
    EXPECT_EQ(on.stages[i].stage, off.stages[i].stage);
    for (const auto& [name, v] : on.stages[i].outputs) {
      const Tensor& a = v.tensor();
      const Tensor& b = off.stages[i].outputs.at(name).tensor();
      ASSERT_EQ(a.shape(), b.shape()) << name;
      for (int64_t k = 0; k < a.numel(); ++k) EXPECT_EQ(a.data<float>()[k], b.data<float>()[k]) << name;
    }
  }
  // both = (x + bias) + 2x, with bias [1, 2, 3].
  EXPECT_EQ(on.outputs.at("both").tensor().data<float>()[4], 5 + 2 + 10);
}

// Both branches fail in one wave: the first in file order ('right') is reported, parallel
// or not; a failure in a branch alone names that branch.
TEST(Pipeline, AFailingBranchIsNamedTheSameWayParallelOrNot) {
  const ValueMap inputs = {{"x", PipelineValue::single(floats({1, 3}, {1, 2, 3}))}};
  const std::string both = R"("left": {"shape": [2, 3]}, "right": {"shape": [4, 3]})";
  for (bool parallel : {true, false}) {
    SCOPED_TRACE(parallel ? "parallel" : "sequential");
    EXPECT_EQ(branches(parallel, "", both)->run(inputs).status().message(),
              "stage 'right': contract violated: tensor 'right': expected shape [4,3], got float32[1,3] (dim 0 is 1, not 4)");
    EXPECT_EQ(branches(parallel, "", R"("left": {"shape": [2, 3]})")->run(inputs).status().message(),
              "stage 'left': contract violated: tensor 'left': expected shape [2,3], got float32[1,3] (dim 0 is 1, not 2)");
    // A stage that fails while running (it maps over a list, and gets none).
    EXPECT_EQ(branches(parallel, R"("map": true, )")->run(inputs).status().message(),
              "stage 'left': \"map\": true, but no input is a list");
  }
}

// Records which thread ran each model stage (by its model's output names).
class ThreadRecorder final : public ModelRunner {
 public:
  ThreadRecorder(std::unique_ptr<ModelRunner> inner, std::map<std::thread::id, int>* seen, std::mutex* mu)
      : inner_(std::move(inner)), seen_(seen), mu_(mu) {}
  std::vector<std::string> output_names() const override { return inner_->output_names(); }
  Result<TensorMap> run(const TensorMap& feeds, const std::vector<std::string>& outputs) override {
    {
      std::lock_guard<std::mutex> lock(*mu_);
      ++(*seen_)[std::this_thread::get_id()];
    }
    return inner_->run(feeds, outputs);
  }

 private:
  std::unique_ptr<ModelRunner> inner_;
  std::map<std::thread::id, int>* seen_;
  std::mutex* mu_;
};

// With parallel the second stage of wave 0 runs on a thread of its own; without, all on
// the caller's.
TEST(Pipeline, AWavesStagesRunOnThreadsOfTheirOwn) {
  for (bool parallel : {true, false}) {
    std::map<std::thread::id, int> seen;
    std::mutex mu;
    PipelineOptions options;
    options.parallel = parallel;
    options.runner_factory = [&](const std::string& path, const std::string& engine, const SessionOptions& session)
        -> Result<std::unique_ptr<ModelRunner>> {
      ASSIGN_OR_RETURN(auto inner, make_session_runner(path, engine, session));
      return std::unique_ptr<ModelRunner>(new ThreadRecorder(std::move(inner), &seen, &mu));
    };
    auto p = Pipeline::load(std::string(TWINRT_SOURCE_DIR) + "/tests/pipeline/data/branches.json", options);
    ASSERT_TRUE(p.is_ok()) << p.status().message();
    ASSERT_TRUE((*p)->run({{"x", PipelineValue::single(floats({1, 3}, {1, 2, 3}))}}).is_ok());
    EXPECT_EQ(seen.size(), parallel ? 2u : 1u);
    EXPECT_EQ(seen[std::this_thread::get_id()], parallel ? 2 : 3);  // left and join, or all three
  }
}

// "threads": 0 (all cores) is shared among the model stages of a concurrent wave; an
// explicit count is kept.
TEST(Pipeline, ConcurrentStagesShareTheCores) {
  const char* json = R"({"inputs": ["x"], "outputs": ["a", "b"], "parallel": PARALLEL, "stages": [
    {"name": "a", "model": "symbolic_add.onnx", "session": {"threads": 0}, "inputs": {"x": "x"}, "outputs": {"z": "a"}},
    {"name": "b", "model": "symbolic_add.onnx", "session": {"threads": 3}, "inputs": {"x": "x"}, "outputs": {"z": "b"}}]})";
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  for (bool parallel : {true, false}) {
    std::string text = json;
    text.replace(text.find("PARALLEL"), 8, parallel ? "true" : "false");
    std::vector<int> threads;
    PipelineOptions options;
    options.runner_factory = [&](const std::string& path, const std::string& engine, const SessionOptions& session) {
      threads.push_back(session.threads);
      return make_session_runner(path, engine, session);
    };
    ASSERT_TRUE(Pipeline::create(parse_pipeline(text, kCliData).value(), options).is_ok());
    EXPECT_EQ(threads, (std::vector<int>{parallel ? std::max(1, cores / 2) : 0, 3}));
  }
}

// A host stage (twinrt-web's WebGPU provider): the run stops there with the stage's feeds,
// goes on with what the host returns, and checks it as any stage's output.
TEST(Pipeline, AHostStageStopsTheRunAndItsOutputsAreChecked) {
  const ValueMap inputs = {{"x", PipelineValue::single(floats({1, 3}, {1, 2, 3}))}};
  const RunResult native = branches(true)->run(inputs).value();
  auto spec = parse_pipeline(R"({"inputs": ["x"], "outputs": ["both", "twice"], "stages": [
    {"name": "join", "model": "../../pipeline/data/add_two.onnx", "inputs": {"a": "left", "b": "right"}, "outputs": {"z": "both"}},
    {"name": "right", "model": "../../pipeline/data/add_two.onnx", "inputs": {"a": "x", "b": "x"}, "outputs": {"z": "right"}},
    {"name": "after", "model": "symbolic_add.onnx", "inputs": {"x": "both"}, "outputs": {"z": "twice"}},
    {"name": "left", "model": "symbolic_add.onnx", "inputs": {"x": "x"}, "outputs": {"z": "left"}}],
    "contracts": {"right": {"shape": [1, 3]}}})",
                             kCliData);
  ASSERT_TRUE(spec.is_ok()) << spec.status().message();
  PipelineOptions options;
  options.host_stages = {"right"};
  auto p = Pipeline::create(std::move(spec).value(), options);
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  EXPECT_FALSE((*p)->parallel());
  EXPECT_EQ((*p)->run(inputs).status().message(), "stage 'right' is run by the host: use start() and resume()");

  auto progress = (*p)->start(inputs);
  ASSERT_TRUE(progress.is_ok()) << progress.status().message();
  ASSERT_TRUE(progress->request.has_value());
  const HostRequest& request = *progress->request;
  EXPECT_EQ(request.stage, "right");
  EXPECT_EQ(request.outputs, std::vector<std::string>{"z"});
  ASSERT_EQ(request.calls.size(), 1u);
  const Tensor& a = request.calls[0].at("a");
  Tensor sum = floats({1, 3}, {0, 0, 0});
  for (int k = 0; k < 3; ++k) sum.data<float>()[k] = 2 * a.data<float>()[k];
  auto done = (*p)->resume({{{"z", sum}}});
  ASSERT_TRUE(done.is_ok()) << done.status().message();
  ASSERT_FALSE(done->request.has_value());
  ASSERT_EQ(done->result.stages.size(), 4u);
  EXPECT_EQ(done->result.stages[0].stage, "right");
  EXPECT_EQ(done->result.stages[0].model_calls, 1);
  for (const char* name : {"both", "twice"})
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(done->result.outputs.at(name).tensor().data<float>()[k], native.outputs.at(name).tensor().data<float>()[k]);

  // A host output that breaks the contract names the stage; the run is over.
  ASSERT_TRUE((*p)->start(inputs).is_ok());
  EXPECT_EQ((*p)->resume({{{"z", floats({2, 3}, {1, 2, 3, 4, 5, 6})}}}).status().message(),
            "stage 'right': contract violated: tensor 'right': expected shape [1,3], got float32[2,3] (dim 0 is 2, not 1)");
  EXPECT_EQ((*p)->resume({}).status().message(), "no run is waiting for a host stage");
  ASSERT_TRUE((*p)->start(inputs).is_ok());
  EXPECT_EQ((*p)->resume({{{"y", sum}}}).status().message(), "stage 'right': the model returned no output 'z'");
  ASSERT_TRUE((*p)->start(inputs).is_ok());
  EXPECT_EQ((*p)->resume({}).status().message(), "stage 'right': expected the outputs of 1 model calls, got 0");

  const char* one = R"({"inputs": ["x"], "outputs": ["y"], "stages": [
    {"name": "add", "model": "symbolic_add.onnx", "inputs": {"x": "x"}, "outputs": {"z": "y"}}]})";
  options.host_stages = {"nope"};
  EXPECT_EQ(Pipeline::create(parse_pipeline(one, kCliData).value(), options).status().message(),
            "host stage 'nope': the pipeline has no such stage");
}

// A mapped host stage gets its items batched by shape, and its outputs are split back.
TEST(Pipeline, AMappedHostStageIsBatchedHere) {
  auto spec = parse_pipeline(R"({"inputs": ["rows"], "outputs": ["sums"], "stages": [
    {"name": "add", "model": "symbolic_add.onnx", "map": true, "batch": 2, "inputs": {"x": "rows"}, "outputs": {"z": "sums"}}]})",
                             kCliData);
  PipelineOptions options;
  options.host_stages = {"add"};
  auto p = Pipeline::create(std::move(spec).value(), options);
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  std::vector<Tensor> rows;
  for (int i = 0; i < 5; ++i) rows.push_back(floats({1, 3}, {float(i), 0, 0}));
  auto progress = (*p)->start({{"rows", PipelineValue::list(rows)}});
  ASSERT_TRUE(progress.is_ok() && progress->request) << progress.status().message();
  std::vector<TensorMap> outputs;
  std::vector<int64_t> batch_rows;
  for (const TensorMap& call : progress->request->calls) {
    batch_rows.push_back(call.at("x").dim(0));
    outputs.push_back({{"z", call.at("x")}});  // the host's model: identity
  }
  EXPECT_EQ(batch_rows, (std::vector<int64_t>{2, 2, 1}));
  auto done = (*p)->resume(std::move(outputs));
  ASSERT_TRUE(done.is_ok()) << done.status().message();
  const PipelineValue& sums = done->result.outputs.at("sums");
  ASSERT_TRUE(sums.is_list);
  ASSERT_EQ(sums.items.size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(sums.items[i].data<float>()[0], float(i));
  EXPECT_EQ(done->result.stages[0].model_calls, 3);
}

TEST(Geometry, MinAreaRectOfARotatedRectangleIsThatRectangle) {
  std::vector<Point> points;
  const double c = std::cos(0.3), s = std::sin(0.3);
  for (int u = 0; u <= 40; ++u)
    for (int v = 0; v <= 10; ++v) points.push_back({50 + u * c - v * s, 20 + u * s + v * c});
  RotatedRect r = min_area_rect(points);
  EXPECT_NEAR(std::max(r.width, r.height), 40, 1e-9);
  EXPECT_NEAR(std::min(r.width, r.height), 10, 1e-9);
  Quad q = r.corners();
  EXPECT_LT(q[0].x, q[1].x);  // top-left before top-right
  EXPECT_LT(q[0].y, q[3].y);  // top-left above bottom-left
}

TEST(Geometry, WarpOfTheWholeImageIsTheImage) {
  parity::RgbImage image;
  image.width = 4, image.height = 3;
  for (int i = 0; i < 36; ++i) image.pixels.push_back(static_cast<uint8_t>(i * 7));
  Quad whole = {Point{0, 0}, Point{4, 0}, Point{4, 3}, Point{0, 3}};
  EXPECT_EQ(warp_perspective(image, whole, 4, 3).pixels, image.pixels);
  EXPECT_EQ(rotate_180(rotate_180(image)).pixels, image.pixels);
  parity::RgbImage turned = rotate_90_ccw(image);
  EXPECT_EQ(turned.width, 3);
  EXPECT_EQ(turned.at(0, 0, 0), image.at(3, 0, 0));  // the top-right corner moves to the top-left
}

Result<ValueMap> run_step(const std::string& name, const std::string& params, ValueMap inputs) {
  ASSIGN_OR_RETURN(auto step, find_step(name)->create(nlohmann::json::parse(params), StepContext{kCliData, "t"}));
  return step->run(inputs);
}

TEST(Steps, DbPostprocessFindsARectangleScaledToTheImage) {
  // A 6x10 probability map with one 4x6 blob; the image is twice as large.
  std::vector<float> prob(60, 0.0f);
  for (int y = 1; y <= 4; ++y)
    for (int x = 2; x <= 7; ++x) prob[static_cast<size_t>(y * 10 + x)] = 0.9f;
  Tensor image = Tensor::create(DataType::kUInt8, {12, 20, 3}).value();
  auto out = run_step("db_postprocess", R"({"unclip_ratio": 0, "min_size": 0})",
                      {{"prob", PipelineValue::single(floats({1, 1, 6, 10}, prob))}, {"image", PipelineValue::single(image)}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const Tensor& boxes = out->at("boxes").tensor();
  ASSERT_EQ(boxes.shape(), (std::vector<int64_t>{1, 4, 2}));
  // Pixel centers 2..7 x 1..4, times 2.
  const std::vector<float> expected = {4, 2, 14, 2, 14, 8, 4, 8};
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(boxes.data<float>()[i], expected[i]) << i;
  EXPECT_NEAR(out->at("scores").tensor().data<float>()[0], 0.9, 1e-6);
}

TEST(Steps, CtcDecodeMergesRepeatsAndDropsBlanks) {
  // Classes: blank, "a", "b", then the space. Steps: a a _ a b _ b ' '
  const int classes[] = {1, 1, 0, 1, 2, 0, 2, 3};
  std::vector<float> probs(8 * 4, 0.0f);
  for (int t = 0; t < 8; ++t) probs[static_cast<size_t>(t * 4 + classes[t])] = 1.0f;
  const std::string dict = std::string(TWINRT_SOURCE_DIR) + "/tests/pipeline/data/ab_dictionary.txt";
  auto out = run_step("ctc_decode", R"({"dictionary": ")" + dict + R"(", "space": true})",
                      {{"probs", PipelineValue::single(floats({1, 8, 4}, probs))}});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->at("text").tensor().data<std::string>()[0], "aabb ");
  auto wrong = run_step("ctc_decode", R"({"dictionary": ")" + dict + R"("})",
                        {{"probs", PipelineValue::single(floats({1, 8, 4}, probs))}});
  EXPECT_NE(wrong.status().message().find("has 4 classes, the dictionary gives 3"), std::string::npos);
}

// Four candidates, two classes: A (class 0, best), B (class 0, IoU 0.68 with A), C (class 1,
// the same box as B), D (below the score threshold).
std::vector<std::vector<float>> yolo_rows() {
  //       cx  cy  w   h  obj  c0    c1
  return {{50, 50, 20, 20, 1.0f, 0.9f, 0.1f},
          {52, 52, 20, 20, 1.0f, 0.8f, 0.1f},
          {52, 52, 20, 20, 0.5f, 0.1f, 0.9f},
          {10, 10, 4, 4, 0.2f, 0.5f, 0.1f}};
}

Result<ValueMap> run_yolo_nms(bool v8, const std::string& params) {
  const auto rows = yolo_rows();
  std::vector<float> v5, v8_values(4 * 6);
  for (const auto& r : rows) v5.insert(v5.end(), r.begin(), r.end());
  for (size_t i = 0; i < rows.size(); ++i)  // yolov8: no objectness (folded into the class scores), transposed
    for (size_t f = 0, out = 0; f < rows[i].size(); ++f)
      if (f != 4) v8_values[out++ * 4 + i] = f > 4 ? rows[i][f] * rows[i][4] : rows[i][f];
  Tensor predictions = v8 ? floats({1, 6, 4}, v8_values) : floats({1, 4, 7}, v5);
  return run_step("yolo_nms", params, {{"predictions", PipelineValue::single(predictions)}});
}

TEST(Steps, YoloNmsKeepsTheBestBoxPerClass) {
  for (bool v8 : {false, true}) {
    auto out = run_yolo_nms(v8, v8 ? R"({"format": "yolov8"})" : "{}");
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    const Tensor& boxes = out->at("boxes").tensor();
    ASSERT_EQ(boxes.shape(), (std::vector<int64_t>{2, 4})) << (v8 ? "yolov8" : "yolov5");
    const std::vector<float> expected = {40, 40, 60, 60, 42, 42, 62, 62};  // A, then C
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(boxes.data<float>()[i], expected[i]) << i;
    EXPECT_EQ(out->at("classes").tensor().data<int64_t>()[0], 0);
    EXPECT_EQ(out->at("classes").tensor().data<int64_t>()[1], 1);
    EXPECT_FLOAT_EQ(out->at("scores").tensor().data<float>()[1], 0.45f);
    // Across classes, C goes too; with a higher IoU threshold B stays.
    EXPECT_EQ(run_yolo_nms(v8, v8 ? R"({"format": "yolov8", "class_agnostic": true})" : R"({"class_agnostic": true})")
                  ->at("boxes").tensor().dim(0), 1);
    EXPECT_EQ(run_yolo_nms(v8, v8 ? R"({"format": "yolov8", "iou_threshold": 0.7})" : R"({"iou_threshold": 0.7})")
                  ->at("boxes").tensor().dim(0), 3);
  }
  auto wrong = run_step("yolo_nms", "{}", {{"predictions", PipelineValue::single(floats({1, 4, 5}, std::vector<float>(20)))}});
  EXPECT_EQ(wrong.status().message(), "input 'predictions' must be float32[1,N,5+C] (yolov5) with C >= 1, got [1,4,5]");
  EXPECT_FALSE(find_step("yolo_nms")->create(nlohmann::json::parse(R"({"format": "yolov7"})"), {}).is_ok());
}

TEST(Steps, ParametersAreChecked) {
  EXPECT_EQ(find_step("db_postprocess")->create(nlohmann::json::parse(R"({"treshold": 0.3})"), {}).status().message(),
            "unknown parameter 'treshold' (known: threshold, box_threshold, unclip_ratio, max_candidates, min_size)");
  EXPECT_FALSE(find_step("image_normalize")->create(nlohmann::json::parse(R"({"std": [1, 0, 1]})"), {}).is_ok());
}

}  // namespace
}  // namespace twinrt::pipeline
