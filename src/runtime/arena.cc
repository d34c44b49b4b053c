#include "runtime/arena.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "ir/block_cache.h"
#include "ir/memory_budget.h"
#include "runtime/plan.h"

namespace twinrt {

struct ArenaRun::State {
  std::shared_ptr<ArenaBuffer> buffer;
  std::unique_ptr<std::atomic<bool>[]> live;  // per block: a tensor holds its bytes now
  std::vector<std::weak_ptr<Storage>> holders;  // per joined block: the storage its parts share
};

namespace {

// One block of a run's arena. Keeps the run's buffer alive, so a value that outlives the
// run stays valid (its buffer is then not reused); gives the budget back when it dies.
class ArenaStorage final : public Storage {
 public:
  ArenaStorage(std::shared_ptr<ArenaRun::State> state, int block, std::byte* p, size_t n,
               std::shared_ptr<MemoryBudget> budget, uint64_t charged)
      : state_(std::move(state)), block_(block), p_(p), n_(n), budget_(std::move(budget)), charged_(charged) {}
  ~ArenaStorage() override {
    state_->live[static_cast<size_t>(block_)].store(false, std::memory_order_release);
    if (budget_) budget_->release(charged_);
  }
  std::byte* data() override { return p_; }
  size_t size() const override { return n_; }
  static const void* kind_tag() {
    static const char tag = 0;
    return &tag;
  }
  const void* kind() const override { return kind_tag(); }

 private:
  std::shared_ptr<ArenaRun::State> state_;
  int block_;
  std::byte* p_;
  size_t n_;
  std::shared_ptr<MemoryBudget> budget_;
  uint64_t charged_;
};

constexpr size_t kPage = 4096;

}  // namespace

ArenaRecorder::ArenaRecorder(const Subgraph& g) : graph_(g) {
  outputs_per_step_.reserve(g.steps.size());
  for (const Step& s : g.steps) outputs_per_step_.push_back(s.outputs.size());
}

void ArenaRecorder::on_output(int step, size_t index, const Tensor& t) {
  if (t.dtype() == DataType::kString || t.nbytes() == 0 || step < 0) return;
  alive_.push_back(seen_.size());
  seen_.push_back({step, index, t.nbytes(), t.shape(), t.storage()});
}

void ArenaRecorder::after_step(int step) {
  alive_.erase(std::remove_if(alive_.begin(), alive_.end(),
                              [&](size_t i) {
                                if (!seen_[i].storage.expired()) return false;
                                seen_[i].last = step;
                                return true;
                              }),
               alive_.end());
}

std::shared_ptr<const ArenaPlan> ArenaRecorder::finish() const {
  auto plan = std::make_shared<ArenaPlan>();
  for (size_t n : outputs_per_step_) plan->block_of.emplace_back(n, -1);
  std::map<std::pair<int, size_t>, int> allocations;  // an output allocated twice stays on the heap
  for (const Seen& s : seen_) ++allocations[{s.step, s.index}];
  std::vector<size_t> seen_of_block;
  for (size_t i = 0; i < seen_.size(); ++i) {
    const Seen& s = seen_[i];
    if (s.last < 0 || allocations[{s.step, s.index}] != 1) continue;
    if (static_cast<size_t>(s.step) >= plan->block_of.size() || s.index >= plan->block_of[static_cast<size_t>(s.step)].size())
      continue;
    plan->block_of[static_cast<size_t>(s.step)][s.index] = static_cast<int>(plan->blocks.size());
    plan->blocks.push_back({s.step, s.last, s.bytes});
    seen_of_block.push_back(i);
  }
  join_concat_parts(*plan, seen_of_block);
  plan->layout = plan_arena(plan->blocks);
  return plan;
}

namespace {

// Where a block lies in the block it joined (into -1: in none).
struct BlockJoin {
  int into = -1;
  size_t offset = 0;  // bytes
};

// The joins that put a Concat's inputs (blocks `inputs`, in order) where they belong in its
// output (block `out`), or nothing. An input joined by an earlier Concat brings that
// Concat's whole outermost block along (DenseNet concatenates every earlier layer's
// features again for each layer, so each Concat's block is the next one's first part).
// The inputs tile the output; so must the blocks they bring, or one would overwrite
// another's bytes.
std::map<int, size_t> concat_moves(const std::vector<ArenaBlock>& blocks, const std::vector<BlockJoin>& joins,
                                   const std::vector<int>& inputs, int out) {
  const size_t out_bytes = blocks[static_cast<size_t>(out)].bytes;
  std::map<int, size_t> moves;  // outermost block -> its offset in the output
  size_t at = 0, moved = 0;     // the next input's offset in the output; bytes of `moves`
  for (int b : inputs) {
    if (b < 0 || b == out) return {};
    size_t within = 0;  // the input's offset in its outermost block r
    int r = b;
    for (; joins[static_cast<size_t>(r)].into >= 0; r = joins[static_cast<size_t>(r)].into)
      within += joins[static_cast<size_t>(r)].offset;
    const size_t r_bytes = blocks[static_cast<size_t>(r)].bytes;
    if (within > at || at - within + r_bytes > out_bytes) return {};
    const auto [move, added] = moves.emplace(r, at - within);
    if (move->second != at - within) return {};
    if (added) moved += r_bytes;
    at += blocks[static_cast<size_t>(b)].bytes;
  }
  return at == out_bytes && moved == out_bytes ? moves : std::map<int, size_t>{};
}

// Lays out only the outermost blocks: each lives as long as any of its parts, and every
// output placed in a joined block gets its part.
void keep_outermost_blocks(ArenaPlan& plan, const std::vector<BlockJoin>& joins) {
  const size_t n = plan.blocks.size();
  std::vector<int> root(n);
  std::vector<size_t> offset(n, 0);  // in the root
  for (size_t b = 0; b < n; ++b) {
    size_t r = b;
    for (; joins[r].into >= 0; r = static_cast<size_t>(joins[r].into)) offset[b] += joins[r].offset;
    root[b] = static_cast<int>(r);
  }
  std::vector<int> renumbered(n, -1);
  std::vector<ArenaBlock> blocks;
  for (size_t b = 0; b < n; ++b) {
    int& kept = renumbered[static_cast<size_t>(root[b])];
    if (kept < 0) {
      kept = static_cast<int>(blocks.size());
      blocks.push_back(plan.blocks[static_cast<size_t>(root[b])]);
      plan.joined.push_back(false);
    }
    ArenaBlock& outer = blocks[static_cast<size_t>(kept)];
    outer.first = std::min(outer.first, plan.blocks[b].first);
    outer.last = std::max(outer.last, plan.blocks[b].last);
    if (root[b] != static_cast<int>(b)) plan.joined[static_cast<size_t>(kept)] = true;
  }
  for (size_t s = 0; s < plan.block_of.size(); ++s)
    for (size_t j = 0; j < plan.block_of[s].size(); ++j) {
      const int b = plan.block_of[s][j];
      if (b < 0) continue;
      const int kept = renumbered[static_cast<size_t>(root[static_cast<size_t>(b)])];
      plan.block_of[s][j] = kept;
      if (plan.joined[static_cast<size_t>(kept)])
        plan.parts[{static_cast<int>(s), j}] = {offset[static_cast<size_t>(b)], plan.blocks[static_cast<size_t>(b)].bytes};
    }
  plan.blocks = std::move(blocks);
}

}  // namespace

// A step whose output is its inputs in order (OpKernel::output_is_inputs_in_order: a Concat
// along the channels of a batch of one) takes its inputs in place: each input's block
// joins the output's, at the input's part, and Concat then finds each input where it would
// copy it (ops/tensor/concat.cc): DenseNet's concatenations of all earlier features took 3%
// of it at 1 thread and 5% at 2. Inputs made by no step of this graph, reaching the caller,
// or whose blocks would overlap are copied as before.
void ArenaRecorder::join_concat_parts(ArenaPlan& plan, const std::vector<size_t>& seen_of_block) const {
  std::map<int, std::pair<size_t, size_t>> made_by;  // slot -> (step, output)
  for (size_t s = 0; s < graph_.steps.size(); ++s)
    for (size_t j = 0; j < graph_.steps[s].outputs.size(); ++j)
      if (graph_.steps[s].outputs[j] >= 0) made_by[graph_.steps[s].outputs[j]] = {s, j};
  std::vector<BlockJoin> joins(plan.blocks.size());
  bool any = false;
  for (size_t s = 0; s < graph_.steps.size() && s < plan.block_of.size(); ++s) {
    const Step& step = graph_.steps[s];
    if (!step.kernel || plan.block_of[s].empty()) continue;
    const int out = plan.block_of[s][0];
    if (out < 0 || !step.kernel->output_is_inputs_in_order(seen_[seen_of_block[static_cast<size_t>(out)]].shape)) continue;
    std::vector<int> inputs;
    for (int slot : step.inputs) {
      const auto made = made_by.find(slot);
      inputs.push_back(made == made_by.end() ? -1 : plan.block_of[made->second.first][made->second.second]);
    }
    for (const auto& [r, offset] : concat_moves(plan.blocks, joins, inputs, out)) {
      joins[static_cast<size_t>(r)] = {out, offset};
      any = true;
    }
  }
  if (any) keep_outermost_blocks(plan, joins);
}

std::shared_ptr<ArenaBuffer> ArenaBuffer::create(size_t bytes) {
  if (bytes == 0 || bytes > SIZE_MAX / 2) return nullptr;
  const size_t size = (bytes + kPage - 1) / kPage * kPage;
  auto* p = static_cast<std::byte*>(std::aligned_alloc(kPage, size));
  if (!p) return nullptr;
  return std::shared_ptr<ArenaBuffer>(new ArenaBuffer(p, size));
}

ArenaBuffer::~ArenaBuffer() { std::free(data_); }

ArenaRun::ArenaRun(std::shared_ptr<const ArenaPlan> plan, std::shared_ptr<ArenaBuffer> buffer)
    : plan_(std::move(plan)), state_(std::make_shared<State>()) {
  state_->buffer = std::move(buffer);
  state_->live.reset(new std::atomic<bool>[plan_->blocks.size()]);
  for (size_t i = 0; i < plan_->blocks.size(); ++i) state_->live[i].store(false, std::memory_order_relaxed);
  state_->holders.resize(plan_->joined.size());
}

Result<std::optional<Tensor>> ArenaRun::place(int step, size_t index, DataType dtype,
                                               const std::vector<int64_t>& shape, bool zero) {
  if (step < 0 || static_cast<size_t>(step) >= plan_->block_of.size()) return std::optional<Tensor>();
  const std::vector<int>& outs = plan_->block_of[static_cast<size_t>(step)];
  const int b = index < outs.size() ? outs[index] : -1;
  if (b < 0 || !dtype_is_valid(static_cast<int32_t>(dtype)) || dtype == DataType::kString)
    return std::optional<Tensor>();
  const size_t block = static_cast<size_t>(b);
  const bool joined = block < plan_->joined.size() && plan_->joined[block];
  ArenaPart part{0, plan_->blocks[block].bytes};
  if (joined) {
    const auto it = plan_->parts.find({step, index});
    if (it == plan_->parts.end()) return std::optional<Tensor>();  // every output of a joined block has a part
    part = it->second;
  }
  const int64_t n = shape_numel(shape);
  const size_t esize = dtype_size(dtype);
  if (n <= 0 || static_cast<uint64_t>(n) > part.bytes / esize)
    return std::optional<Tensor>();  // empty, or larger than the recorded run's: the heap
  const size_t want = static_cast<size_t>(n) * esize;
  // A part of another size would not be where Concat copies it to: the heap.
  if (joined && want != part.bytes) return std::optional<Tensor>();
  std::shared_ptr<Storage> storage = joined ? state_->holders[block].lock() : nullptr;
  if (!storage) {
    // Bytes still held by a value that outlived its recorded lifetime are not handed out twice.
    if (state_->live[block].load(std::memory_order_acquire)) return std::optional<Tensor>();
    for (int other : plan_->layout.sharing[block])
      if (state_->live[static_cast<size_t>(other)].load(std::memory_order_acquire)) return std::optional<Tensor>();
    const size_t bytes = joined ? plan_->blocks[block].bytes : want;  // a joined block is charged whole
    const std::shared_ptr<MemoryBudget>& budget = BudgetScope::current();
    if (budget) TRY(budget->charge(bytes, dtype, shape));
    std::byte* p = state_->buffer->data() + plan_->layout.offsets[block];
    state_->live[block].store(true, std::memory_order_release);
    storage = std::make_shared<ArenaStorage>(state_, b, p, bytes, budget, budget ? bytes : 0);
    if (joined) state_->holders[block] = storage;
  }
  if (zero) std::memset(storage->data() + part.offset, 0, want);
  ASSIGN_OR_RETURN(Tensor t, Tensor::view(dtype, shape, std::move(storage), part.offset));
  return std::optional<Tensor>(std::move(t));
}

bool ArenaRun::in_arena(const Tensor& t) { return t.storage() && t.storage()->kind() == ArenaStorage::kind_tag(); }

ArenaCache::Lease ArenaCache::acquire(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return {};
  Entry& e = it->second;
  e.used = ++clock_;
  Lease lease{e.plan, nullptr};
  if (!e.idle.empty()) {
    lease.buffer = std::move(e.idle.back());
    e.idle.pop_back();
  } else if (e.plan->layout.size > 0) {
    lease.buffer = ArenaBuffer::create(e.plan->layout.size);  // null: this run uses the heap
  }
  return lease;
}

void ArenaCache::store(const std::string& key, std::shared_ptr<const ArenaPlan> plan) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (entries_.count(key)) return;  // a concurrent first run planned it already
  }
  // The blocks the recorded run freed would otherwise stay resident next to the arena.
  if (!plan->blocks.empty()) trim_block_cache();
  std::lock_guard<std::mutex> lock(mu_);
  if (entries_.count(key)) return;
  if (entries_.size() >= kMaxShapes) {
    auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                   [](const auto& a, const auto& b) { return a.second.used < b.second.used; });
    entries_.erase(oldest);
  }
  Entry& e = entries_[key];
  e.plan = std::move(plan);
  e.used = ++clock_;
}

void ArenaCache::release(const std::string& key, std::shared_ptr<ArenaBuffer> buffer) {
  if (!buffer || buffer.use_count() != 1) return;  // a value still views it: let it go with that value
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(key);
  if (it != entries_.end() && it->second.plan && buffer->size() >= it->second.plan->layout.size)
    it->second.idle.push_back(std::move(buffer));
}

std::string arena_key(const std::vector<Value>& inputs, const std::vector<std::pair<int, Value>>& overrides) {
  std::string key;
  auto add = [&](const Value& v) {
    if (!v.is_tensor()) return false;
    key += std::to_string(static_cast<int>(v.tensor.dtype()));
    for (int64_t d : v.tensor.shape()) key += "," + std::to_string(d);
    key += ";";
    return true;
  };
  for (const Value& v : inputs)
    if (!add(v)) return "";
  for (const auto& [slot, v] : overrides) {
    key += "@" + std::to_string(slot) + ":";
    if (!add(v)) return "";
  }
  return key.empty() ? ";" : key;
}

}  // namespace twinrt
