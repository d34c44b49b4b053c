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

ArenaRecorder::ArenaRecorder(const Subgraph& g) {
  outputs_per_step_.reserve(g.steps.size());
  for (const Step& s : g.steps) outputs_per_step_.push_back(s.outputs.size());
}

void ArenaRecorder::on_output(int step, size_t index, const Tensor& t) {
  if (t.dtype() == DataType::kString || t.nbytes() == 0 || step < 0) return;
  alive_.push_back(seen_.size());
  seen_.push_back({step, index, t.nbytes(), t.storage()});
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
  for (const Seen& s : seen_) {
    if (s.last < 0 || allocations[{s.step, s.index}] != 1) continue;
    if (static_cast<size_t>(s.step) >= plan->block_of.size() || s.index >= plan->block_of[static_cast<size_t>(s.step)].size())
      continue;
    plan->block_of[static_cast<size_t>(s.step)][s.index] = static_cast<int>(plan->blocks.size());
    plan->blocks.push_back({s.step, s.last, s.bytes});
  }
  plan->layout = plan_arena(plan->blocks);
  return plan;
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
}

Result<std::optional<Tensor>> ArenaRun::place(int step, size_t index, DataType dtype,
                                               const std::vector<int64_t>& shape, bool zero) {
  if (step < 0 || static_cast<size_t>(step) >= plan_->block_of.size()) return std::optional<Tensor>();
  const std::vector<int>& outs = plan_->block_of[static_cast<size_t>(step)];
  const int b = index < outs.size() ? outs[index] : -1;
  if (b < 0 || !dtype_is_valid(static_cast<int32_t>(dtype)) || dtype == DataType::kString)
    return std::optional<Tensor>();
  const int64_t n = shape_numel(shape);
  const size_t esize = dtype_size(dtype);
  if (n <= 0 || static_cast<uint64_t>(n) > plan_->blocks[static_cast<size_t>(b)].bytes / esize)
    return std::optional<Tensor>();  // empty, or larger than the recorded run's: the heap
  const size_t want = static_cast<size_t>(n) * esize;
  // Bytes still held by a value that outlived its recorded lifetime are not handed out twice.
  if (state_->live[static_cast<size_t>(b)].load(std::memory_order_acquire)) return std::optional<Tensor>();
  for (int other : plan_->layout.sharing[static_cast<size_t>(b)])
    if (state_->live[static_cast<size_t>(other)].load(std::memory_order_acquire)) return std::optional<Tensor>();
  const std::shared_ptr<MemoryBudget>& budget = BudgetScope::current();
  if (budget) TRY(budget->charge(want, dtype, shape));
  std::byte* p = state_->buffer->data() + plan_->layout.offsets[static_cast<size_t>(b)];
  if (zero) std::memset(p, 0, want);
  state_->live[static_cast<size_t>(b)].store(true, std::memory_order_release);
  auto storage = std::make_shared<ArenaStorage>(state_, b, p, want, budget, budget ? want : 0);
  ASSIGN_OR_RETURN(Tensor t, Tensor::view(dtype, shape, std::move(storage), 0));
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
