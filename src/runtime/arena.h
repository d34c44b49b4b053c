// Reusing one block of memory for the tensors a run creates, run after run.
//
// The first run with a given set of input shapes records, for every output a kernel
// allocates (step, output index), its size and the step after which its storage died
// (views such as Reshape's keep it alive longer; values that reach the caller never die
// inside the run and stay on the heap). plan_arena turns that into offsets, and later runs
// with the same shapes place those outputs in an arena kept by the session: no allocation,
// no page faults. Everything stays safe when a run behaves differently from the recorded
// one: a larger request, or a block whose bytes are still held by a value that outlived its
// planned lifetime, falls back to the heap, and outputs that still view the arena at the end
// are copied out. Nested graphs (If/Loop/Scan bodies) always use the heap.
#pragma once

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/arena_layout.h"
#include "twinrt/tensor.h"

namespace twinrt {

class Subgraph;

// Where a part of a joined block lies in it: byte offset and bytes.
struct ArenaPart {
  size_t offset = 0, bytes = 0;
};

// Offsets for one set of input shapes.
struct ArenaPlan {
  std::vector<std::vector<int>> block_of;  // [step][output] -> block, -1 for the heap
  std::vector<ArenaBlock> blocks;
  ArenaLayout layout;
  // Joined blocks (a Concat's output whose inputs are written in place, each at its part
  // of it; see ArenaRecorder::finish): (step, output) -> its part, for every output placed
  // in a joined block. Other outputs start their block.
  std::map<std::pair<int, size_t>, ArenaPart> parts;
  std::vector<bool> joined;  // per block (empty: none is)
};

// Watches one run on the heap and derives an ArenaPlan from it.
class ArenaRecorder {
 public:
  explicit ArenaRecorder(const Subgraph& g);  // g must outlive the recorder
  void on_output(int step, size_t index, const Tensor& t);
  void after_step(int step);  // after the step's values were released
  // Outputs whose storage is still alive now (they reach the caller) stay on the heap.
  std::shared_ptr<const ArenaPlan> finish() const;

 private:
  struct Seen {
    int step;
    size_t index;
    size_t bytes;
    std::vector<int64_t> shape;
    std::weak_ptr<Storage> storage;
    int last = -1;
  };
  // Joins the blocks of Concats' inputs to their outputs' (see finish).
  void join_concat_parts(ArenaPlan& plan, const std::vector<size_t>& seen_of_block) const;
  const Subgraph& graph_;
  std::vector<Seen> seen_;
  std::vector<size_t> alive_;  // indices into seen_ not known dead yet
  std::vector<size_t> outputs_per_step_;
};

// The memory of one arena: one run at a time.
class ArenaBuffer {
 public:
  static std::shared_ptr<ArenaBuffer> create(size_t bytes);  // null when refused
  ~ArenaBuffer();
  std::byte* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  ArenaBuffer(std::byte* data, size_t size) : data_(data), size_(size) {}
  std::byte* data_;
  size_t size_;
};

// One run placing outputs in a buffer by a plan.
class ArenaRun {
 public:
  ArenaRun(std::shared_ptr<const ArenaPlan> plan, std::shared_ptr<ArenaBuffer> buffer);
  // A tensor in the arena for output `index` of step `step`, zero-filled when `zero`; null
  // when it must come from the heap (not planned, larger than planned, bytes still in use).
  // An error is a refusal of the memory budget.
  Result<std::optional<Tensor>> place(int step, size_t index, DataType dtype, const std::vector<int64_t>& shape,
                                      bool zero);
  // True when `t` views this run's arena (it must be copied before it leaves the run).
  static bool in_arena(const Tensor& t);

  struct State;

 private:
  std::shared_ptr<const ArenaPlan> plan_;
  std::shared_ptr<State> state_;
};

// Plans and idle buffers of one session, by input shapes; safe for concurrent runs (each
// run takes a buffer of its own).
class ArenaCache {
 public:
  struct Lease {
    std::shared_ptr<const ArenaPlan> plan;  // null: record this run
    std::shared_ptr<ArenaBuffer> buffer;
  };
  Lease acquire(const std::string& key);
  void store(const std::string& key, std::shared_ptr<const ArenaPlan> plan);
  // Gives the buffer back for the next run unless something still holds it.
  void release(const std::string& key, std::shared_ptr<ArenaBuffer> buffer);

 private:
  struct Entry {
    std::shared_ptr<const ArenaPlan> plan;
    std::vector<std::shared_ptr<ArenaBuffer>> idle;
    uint64_t used = 0;
  };
  static constexpr size_t kMaxShapes = 4;  // input shapes with a plan kept; the least recent goes
  std::mutex mu_;
  std::map<std::string, Entry> entries_;
  uint64_t clock_ = 0;
};

// The key of a run's input shapes: dtype and dims of every tensor fed; empty when a feed
// is not a tensor (such runs do not use an arena).
std::string arena_key(const std::vector<Value>& inputs, const std::vector<std::pair<int, Value>>& overrides);

}  // namespace twinrt
