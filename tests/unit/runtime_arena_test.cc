// The arena: offsets (overlaps, lifetimes, alignment), placing a run's values by a recorded
// plan, and runs through a session giving the same bits as the heap and never handing the
// caller memory that the next run overwrites.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <thread>

#include "control_model_builder.h"
#include "ir/memory_budget.h"
#include "runtime/arena.h"
#include "runtime/arena_layout.h"
#include "runtime/execute.h"

namespace twinrt {
namespace {

using namespace control_testing;

size_t rounded(size_t bytes, size_t align) { return (std::max<size_t>(bytes, 1) + align - 1) / align * align; }

bool lifetimes_overlap(const ArenaBlock& a, const ArenaBlock& b) { return a.first <= b.last && b.first <= a.last; }

bool bytes_overlap(const ArenaLayout& l, const std::vector<ArenaBlock>& blocks, size_t i, size_t j, size_t align) {
  return l.offsets[i] < l.offsets[j] + rounded(blocks[j].bytes, align) &&
         l.offsets[j] < l.offsets[i] + rounded(blocks[i].bytes, align);
}

// Every invariant a layout must keep, checked pair by pair.
void expect_valid(const std::vector<ArenaBlock>& blocks, const ArenaLayout& l, size_t align) {
  ASSERT_EQ(l.offsets.size(), blocks.size());
  ASSERT_EQ(l.sharing.size(), blocks.size());
  EXPECT_EQ(l.size % align, 0u);
  for (size_t i = 0; i < blocks.size(); ++i) {
    EXPECT_EQ(l.offsets[i] % align, 0u) << "block " << i;
    EXPECT_LE(l.offsets[i] + blocks[i].bytes, l.size) << "block " << i;
    for (size_t j = 0; j < blocks.size(); ++j) {
      if (i == j) continue;
      const bool overlap = bytes_overlap(l, blocks, i, j, align);
      if (lifetimes_overlap(blocks[i], blocks[j])) {
        EXPECT_FALSE(overlap) << "blocks " << i << " and " << j;
      }
      const bool listed = std::count(l.sharing[i].begin(), l.sharing[i].end(), static_cast<int>(j)) == 1;
      EXPECT_EQ(listed, overlap) << "sharing of blocks " << i << " and " << j;
    }
  }
}

TEST(ArenaLayout, NoBlocksNeedNoBytes) {
  ArenaLayout l = plan_arena({});
  EXPECT_EQ(l.size, 0u);
  EXPECT_TRUE(l.offsets.empty());
}

TEST(ArenaLayout, BlocksAliveTogetherGetDisjointBytes) {
  std::vector<ArenaBlock> blocks = {{0, 5, 100}, {1, 3, 200}, {2, 2, 64}};
  ArenaLayout l = plan_arena(blocks);
  expect_valid(blocks, l, 64);
  EXPECT_EQ(l.size, 128u + 256u + 64u);
  for (const auto& s : l.sharing) EXPECT_TRUE(s.empty());
}

TEST(ArenaLayout, BlocksThatNeverLiveTogetherShareBytes) {
  // A chain: each value is read by the next step only, as in a plain CNN.
  std::vector<ArenaBlock> blocks = {{0, 1, 4096}, {1, 2, 4096}, {2, 3, 4096}, {3, 4, 4096}};
  ArenaLayout l = plan_arena(blocks);
  expect_valid(blocks, l, 64);
  EXPECT_EQ(l.size, 2u * 4096u);
  EXPECT_EQ(l.offsets[0], l.offsets[2]);
  EXPECT_EQ(l.offsets[1], l.offsets[3]);
  EXPECT_EQ(l.sharing[0], std::vector<int>{2});
}

TEST(ArenaLayout, ASmallBlockFillsAGapLeftByALargerOne) {
  std::vector<ArenaBlock> blocks = {{0, 0, 1000}, {0, 4, 1000}, {1, 2, 500}, {1, 1, 300}};
  ArenaLayout l = plan_arena(blocks);
  expect_valid(blocks, l, 64);
  // Blocks 2 and 3 fit where block 0 was (1024 bytes) next to block 1.
  EXPECT_EQ(l.size, 2u * 1024u);
}

TEST(ArenaLayout, OffsetsFollowTheAlignment) {
  std::vector<ArenaBlock> blocks = {{0, 3, 1}, {0, 3, 65}, {1, 2, 100}, {2, 3, 7}, {3, 3, 0}};
  for (size_t align : {size_t{16}, size_t{64}, size_t{256}, size_t{4096}}) {
    ArenaLayout l = plan_arena(blocks, align);
    expect_valid(blocks, l, align);
  }
}

TEST(ArenaLayout, RandomLifetimesKeepEveryInvariant) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<ArenaBlock> blocks;
    const int n = 1 + static_cast<int>(rng() % 120);
    for (int i = 0; i < n; ++i) {
      const int first = static_cast<int>(rng() % 60);
      blocks.push_back({first, first + static_cast<int>(rng() % 12), 1 + rng() % 100000});
    }
    ArenaLayout l = plan_arena(blocks);
    expect_valid(blocks, l, 64);
    // Never more than every block side by side, never less than the busiest step.
    size_t sum = 0, busiest = 0;
    for (const auto& b : blocks) sum += rounded(b.bytes, 64);
    for (int step = 0; step < 72; ++step) {
      size_t live = 0;
      for (const auto& b : blocks)
        if (b.first <= step && step <= b.last) live += rounded(b.bytes, 64);
      busiest = std::max(busiest, live);
    }
    EXPECT_LE(l.size, sum);
    EXPECT_GE(l.size, busiest);
  }
}

std::shared_ptr<ArenaPlan> one_block_plan(size_t bytes) {
  auto plan = std::make_shared<ArenaPlan>();
  plan->block_of = {{0}, {-1}};
  plan->blocks = {{0, 0, bytes}};
  plan->layout = plan_arena(plan->blocks);
  return plan;
}

TEST(ArenaRun, PlacesOnlyWhatFitsAndNeverHandsOutLiveBytesTwice) {
  auto plan = one_block_plan(4096);
  auto buffer = ArenaBuffer::create(plan->layout.size);
  ASSERT_TRUE(buffer);
  ArenaRun run(plan, buffer);
  auto larger = run.place(0, 0, DataType::kFloat, {1025}, false);
  ASSERT_TRUE(larger);
  EXPECT_FALSE(larger->has_value());  // larger than recorded: the heap
  auto unplanned = run.place(1, 0, DataType::kFloat, {4}, false);
  ASSERT_TRUE(unplanned);
  EXPECT_FALSE(unplanned->has_value());
  auto zeroed = run.place(0, 0, DataType::kFloat, {2, 8}, true);
  ASSERT_TRUE(zeroed && zeroed->has_value());
  const Tensor t = **zeroed;
  EXPECT_TRUE(ArenaRun::in_arena(t));
  EXPECT_EQ(t.raw(), static_cast<const void*>(buffer->data()));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(t.data<float>()[i], 0.0f);
  auto again = run.place(0, 0, DataType::kFloat, {4}, false);  // `t` still holds the block
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->has_value());
}

TEST(ArenaRun, ChargesTheMemoryBudgetAndGivesItBack) {
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  auto plan = one_block_plan(2 * kMiB);
  ArenaRun run(plan, ArenaBuffer::create(plan->layout.size));
  auto budget = std::make_shared<MemoryBudget>(ResourceLimits{kMiB, kMiB}, 0);
  BudgetScope scope(budget);
  auto refused = run.place(0, 0, DataType::kFloat, {512 * 1024}, false);  // 2 MiB > 1 MiB
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.status().message().find("[524288]"), std::string::npos) << refused.status().message();
  {
    auto held = run.place(0, 0, DataType::kFloat, {256 * 1024}, false);  // the whole 1 MiB
    ASSERT_TRUE(held && held->has_value());
    EXPECT_FALSE(Tensor::create(DataType::kFloat, {1}));
  }
  EXPECT_TRUE(Tensor::create(DataType::kFloat, {256 * 1024}));
}

// x -> Relu -> Add(a, a) -> Mul(b, b) -> Reshape (a view: the output) ; Neg(b) (an output)
ir::Graph chain_graph() {
  ir::Graph g = graph({node("Relu", {"x"}, {"a"}), node("Add", {"a", "a"}, {"b"}), node("Mul", {"b", "b"}, {"c"}),
                       node("Reshape", {"c", "shape"}, {"y"}), node("Neg", {"b"}, {"z"}), node("Sigmoid", {"z"}, {"w"}),
                       node("Add", {"w", "c"}, {"v"})},
                      {tensor_info("x", DataType::kFloat, std::nullopt)},
                      {tensor_info("y", DataType::kFloat), tensor_info("z", DataType::kFloat),
                       tensor_info("v", DataType::kFloat)});
  g.initializers["shape"] = make<int64_t>({1}, {-1});
  g.initializer_order.push_back("shape");
  return g;
}

Value ramp(std::vector<int64_t> shape, float scale) {
  Tensor t = Tensor::create(DataType::kFloat, std::move(shape)).value();
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = scale * (static_cast<float>(i % 13) - 6.0f);
  return Value::of(t);
}

// A compiled graph and the model its steps point into.
struct Compiled {
  std::unique_ptr<ir::Model> model;
  std::shared_ptr<const Subgraph> g;
};

Compiled compiled(const ir::Graph& graph) {
  Compiled c{std::make_unique<ir::Model>(), nullptr};
  c.model->ir_version = 8;
  c.model->opset_imports[""] = 17;
  c.model->graph = std::make_shared<ir::Graph>(graph);
  auto g = compile_model(*c.model, {});
  EXPECT_TRUE(g) << g.status().message();
  if (g) c.g = *g;
  return c;
}

// The plan recorded from a heap run of `g` on `input`.
std::shared_ptr<const ArenaPlan> recorded_plan(const Subgraph& g, const Value& input) {
  ThreadPool pool(1);
  ExecOptions record{Mode::kDefault, &pool};
  ArenaRecorder recorder(g);
  record.recorder = &recorder;
  auto first = execute(g, {input}, {}, record);
  EXPECT_TRUE(first) << first.status().message();
  return recorder.finish();
}

// Runs on `plan` with three inputs of `shape` give the heap's bits, and outputs that never
// view the arena: the next run's values do not overwrite them.
void expect_arena_runs_give_the_heaps_bits(const Subgraph& g, std::shared_ptr<const ArenaPlan> plan,
                                           const std::vector<int64_t>& shape) {
  ThreadPool pool(1);
  ExecOptions heap{Mode::kDefault, &pool};
  auto buffer = ArenaBuffer::create(plan->layout.size);
  std::vector<std::vector<Value>> kept;
  for (float scale : {0.5f, -1.0f, 2.0f}) {
    auto want = execute(g, {ramp(shape, scale)}, {}, heap);
    ArenaRun run(plan, buffer);
    ExecOptions arena = heap;
    arena.arena = &run;
    auto got = execute(g, {ramp(shape, scale)}, {}, arena);
    ASSERT_TRUE(want && got);
    ASSERT_EQ(got->size(), want->size());
    for (size_t i = 0; i < got->size(); ++i) {
      EXPECT_FALSE(ArenaRun::in_arena((*got)[i].tensor));
      ASSERT_EQ((*got)[i].tensor.nbytes(), (*want)[i].tensor.nbytes());
      EXPECT_EQ(std::memcmp((*got)[i].tensor.raw(), (*want)[i].tensor.raw(), (*want)[i].tensor.nbytes()), 0)
          << "output " << i << ", scale " << scale;
    }
    kept.push_back(*want);
    kept.push_back(*got);
  }
  for (size_t r = 0; r < kept.size(); r += 2)
    for (size_t i = 0; i < kept[r].size(); ++i)
      EXPECT_EQ(std::memcmp(kept[r][i].tensor.raw(), kept[r + 1][i].tensor.raw(), kept[r][i].tensor.nbytes()), 0);
}

TEST(ArenaExecute, RecordedPlanGivesTheHeapsBitsAndOutputsNeverViewTheArena) {
  const Compiled c = compiled(chain_graph());
  const std::shared_ptr<const Subgraph>& g = c.g;
  ASSERT_TRUE(g);
  auto plan = recorded_plan(*g, ramp({3, 40000}, 0.5f));
  // a, b and w are planned; y views c, so c reaches the caller and stays on the heap, as
  // do z and v.
  size_t planned = 0;
  for (const auto& outs : plan->block_of)
    for (int b : outs) planned += b >= 0;
  EXPECT_EQ(planned, 3u);
  EXPECT_EQ(plan->layout.size, 2u * 480000u);  // a and b are alive together; w comes after both
  EXPECT_TRUE(plan->parts.empty());
  expect_arena_runs_give_the_heaps_bits(*g, plan, {3, 40000});
}

// Steps of `plan` whose output 0 is a part of a joined block, and the parts' offsets.
std::map<int, size_t> joined_steps(const ArenaPlan& plan) {
  std::map<int, size_t> steps;
  for (const auto& [at, part] : plan.parts) steps[at.first] = part.offset;
  return steps;
}

// x -> a = Relu, b = Neg, d = Sigmoid; c = Concat(a, b); e = Concat(a, b, d), as DenseNet
// concatenates all earlier features for every layer; outputs of their own from c and e.
TEST(ArenaExecute, ConcatInputsAreWrittenInPlaceAndConcatsNest) {
  const std::vector<ir::Attribute> axis1 = {int_attr("axis", 1)};
  ir::Graph graph_def = graph({node("Relu", {"x"}, {"a"}), node("Neg", {"x"}, {"b"}), node("Concat", {"a", "b"}, {"c"}, axis1),
                               node("Sigmoid", {"x"}, {"d"}), node("Concat", {"a", "b", "d"}, {"e"}, axis1),
                               node("Abs", {"c"}, {"y"}), node("Relu", {"e"}, {"z"})},
                              {tensor_info("x", DataType::kFloat, std::nullopt)},
                              {tensor_info("y", DataType::kFloat), tensor_info("z", DataType::kFloat)});
  const Compiled c = compiled(graph_def);
  const std::shared_ptr<const Subgraph>& g = c.g;
  ASSERT_TRUE(g);
  auto plan = recorded_plan(*g, ramp({1, 2, 30, 30}, 0.5f));
  const size_t part = 2 * 30 * 30 * sizeof(float);
  // Steps 0-4 (a, b, c, d, e) share e's block: a, then b, then d; c is a and b.
  EXPECT_EQ(joined_steps(*plan), (std::map<int, size_t>{{0, 0}, {1, part}, {2, 0}, {3, 2 * part}, {4, 0}}));
  ASSERT_EQ(plan->blocks.size(), 1u);
  EXPECT_EQ(plan->blocks[0].bytes, 3 * part);
  EXPECT_EQ(plan->blocks[0].first, 0);
  expect_arena_runs_give_the_heaps_bits(*g, plan, {1, 2, 30, 30});
}

// Concats whose inputs cannot all be in place: a's block is c's, which would overlap d in
// e; the same input twice; an axis with a dimension before it that is not 1.
TEST(ArenaExecute, ConcatsWhosePartsWouldOverlapCopy) {
  const std::vector<ir::Attribute> axis1 = {int_attr("axis", 1)}, axis2 = {int_attr("axis", 2)};
  ir::Graph graph_def =
      graph({node("Relu", {"x"}, {"a"}), node("Neg", {"x"}, {"b"}), node("Concat", {"a", "b"}, {"c"}, axis1),
             node("Sigmoid", {"x"}, {"d"}), node("Concat", {"a", "d"}, {"e"}, axis1), node("Concat", {"d", "d"}, {"f"}, axis1),
             node("Tanh", {"x"}, {"h"}), node("Concat", {"h", "b"}, {"k"}, axis2), node("Abs", {"c"}, {"y"}),
             node("Relu", {"e"}, {"z"}), node("Neg", {"f"}, {"v"}), node("Abs", {"k"}, {"w"})},
            {tensor_info("x", DataType::kFloat, std::nullopt)},
            {tensor_info("y", DataType::kFloat), tensor_info("z", DataType::kFloat), tensor_info("v", DataType::kFloat),
             tensor_info("w", DataType::kFloat)});
  const Compiled c = compiled(graph_def);
  const std::shared_ptr<const Subgraph>& g = c.g;
  ASSERT_TRUE(g);
  auto plan = recorded_plan(*g, ramp({1, 2, 30, 30}, 0.5f));
  EXPECT_EQ(joined_steps(*plan), (std::map<int, size_t>{{0, 0}, {1, 2 * 30 * 30 * sizeof(float)}, {2, 0}}));
  expect_arena_runs_give_the_heaps_bits(*g, plan, {1, 2, 30, 30});
}

TEST(ArenaSession, RunsWithChangingShapesAndKeptOutputsStayIntact) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = 17;
  m.graph = std::make_shared<ir::Graph>(chain_graph());
  auto session = SessionImpl::create(std::move(m), {});
  ASSERT_TRUE(session) << session.status().message();
  std::vector<std::pair<std::map<std::string, Value>, std::vector<float>>> kept;
  for (int64_t n : {40000, 40000, 40000, 7, 40000, 7, 90000, 90000}) {
    auto out = (*session)->run({{"x", ramp({2, n}, static_cast<float>(n % 5) + 0.25f)}});
    ASSERT_TRUE(out) << out.status().message();
    const Tensor& v = out->at("v").tensor;
    kept.emplace_back(*out, std::vector<float>(v.data<float>(), v.data<float>() + v.numel()));
  }
  for (auto& [out, copy] : kept) {
    const Tensor& v = out.at("v").tensor;
    EXPECT_EQ(std::memcmp(v.raw(), copy.data(), copy.size() * sizeof(float)), 0);
  }
}

TEST(ArenaSession, ConcurrentRunsWithMoreShapesThanPlansKeptAgreeWithTheHeap) {
  auto load = [] {
    ir::Model m;
    m.ir_version = 8;
    m.opset_imports[""] = 17;
    m.graph = std::make_shared<ir::Graph>(chain_graph());
    return SessionImpl::create(std::move(m), {});
  };
  auto shared = load();
  ASSERT_TRUE(shared) << shared.status().message();
  setenv("TWINRT_ARENA", "0", 1);
  auto heap = load();
  unsetenv("TWINRT_ARENA");
  ASSERT_TRUE(heap) << heap.status().message();
  const std::vector<int64_t> sizes = {3000, 7, 40000, 512, 9000, 65536};  // six shapes, four plans kept
  std::vector<std::map<std::string, Value>> want;
  for (int64_t n : sizes) {
    auto out = (*heap)->run({{"x", ramp({2, n}, static_cast<float>(n % 7) - 3.5f)}});
    ASSERT_TRUE(out) << out.status().message();
    want.push_back(*out);
  }
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 60; ++i) {
        const size_t k = static_cast<size_t>(t + i * 5) % sizes.size();
        const int64_t n = sizes[k];
        auto got = (*shared)->run({{"x", ramp({2, n}, static_cast<float>(n % 7) - 3.5f)}});
        if (!got) {
          ++mismatches[static_cast<size_t>(t)];
          continue;
        }
        for (const auto& [name, v] : want[k]) {
          const Tensor& a = got->at(name).tensor;
          if (a.shape() != v.tensor.shape() || std::memcmp(a.raw(), v.tensor.raw(), a.nbytes()) != 0)
            ++mismatches[static_cast<size_t>(t)];
        }
      }
    });
  for (auto& th : threads) th.join();
  for (int m : mismatches) EXPECT_EQ(m, 0);
}

}  // namespace
}  // namespace twinrt
