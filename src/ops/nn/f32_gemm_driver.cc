#include "ops/nn/f32_gemm_driver.h"

#include "ops/nn/thread_scratch.h"
#include "runtime/whole_tasks.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <vector>

namespace twinrt::nn {
namespace {

// A chunk of A's panels is reused for every column panel of its task: keep it in L2.
constexpr int64_t kAChunkBytes = 512 * 1024;
// B panels that are packed or written (im2col) while running are made once per task and
// kept for all of its A chunks, up to this many bytes per task.
constexpr int64_t kBBlockBytes = 2 * 1024 * 1024;
// Tasks per thread for a product split over threads: a thread that is done claims the
// next, so smaller tasks leave less of a product to one thread at its end (the Xeon VM,
// 2 threads, 6 against 3: ResNet-50 0.92-0.96, BERT 0.94, MobileNetV2 0.96).
constexpr int64_t kTasksPerThread = 6;
// Below this many multiply-adds a product runs on the calling thread.
constexpr int64_t kSerialWork = 1 << 17;
// The shortest part of k worth a pass over C of its own (see k_parts).
constexpr int64_t kMinKPart = 256;
// A row-major B (1x1 convolutions: the channels' planes) is read in place by products of at
// most this many A panels: packing B costs a read and a write of all of it, shared by too
// few A panels to pay off (MobileNetV2's 24-channel projection at 56 x 56: 10-25% faster).
constexpr int64_t kInPlaceBMaxAPanels = 4;
// So is a large one with long rows read by a dozen A panels at most, or so shallow that a
// panel's rows stay in L1 for every A panel: packing it is a pass over more than L2 keeps
// next to the tiles' operands, and at 2 threads the packed panels, made by both threads and
// read by both, cross between cores (on the Zen 5 VM, whose two vCPUs were often on
// different CCDs, 420-480 ns per round trip: ResNet-50's 1x1 convolutions at 56 x 56 and
// 28 x 28 0.6-0.8x per node at 1 and 2 threads). Rows of fewer columns waste more of each
// line they start or end in (ResNet-50's 7 x 7 layers, 49 columns: 1.1-1.3x in place), and
// deep panels read by many A panels come from L2 again for each (PP-OCRv4 rec's 480 x 480
// at 3 x 80: 1.3x in place).
constexpr int64_t kInPlaceBMinColumns = 128;
constexpr int64_t kInPlaceBMinBytes = 256 * 1024;
constexpr int64_t kInPlaceLargeBMaxAPanels = 12;
constexpr int64_t kInPlaceL1Depth = 64;
// Weights (packed A) with more rows than B has columns, those at least kInPlaceBMinColumns:
// B is read in place and the tasks split A's rows, where each thread made its own copy of B
// before (b_per_thread). ResNet-50's 1024 -> 256 1x1 convolutions at 14 x 14, 2 threads:
// 0.85-0.94x per node; at 1 thread no change.

// Products at most this deep, with B made while running (1x1 convolutions over few
// channels), walk each A panel along the whole B block: C's rows (and a fused residual's)
// are then written along the row, a few streams the prefetcher follows, instead of one
// line in each of hundreds of rows, and with so few k steps per tile those misses are what
// the tile waits on. The block is then kept to kShortKBlockBytes so that it stays in L2
// while every A panel passes over it. Only where no other thread writes the same rows: on
// one thread, or with tasks that split A's rows (b_per_thread). When tasks split C's columns, a
// thread running along a row had the prefetcher pull in the next task's lines, which the
// other thread was writing (MobileNetV2's 24 -> 144 expansion at 56 x 56, 2 threads: 0.24
// -> 0.58 ms).
constexpr int64_t kShortK = 128;
constexpr int64_t kShortKBlockBytes = 256 * 1024;
// A strided B of at most this many columns (a squeeze-and-excitation block's 1x1
// convolutions, on one position) is copied compactly, its k entries n floats apart, and
// every tile reads it with that stride: packed, its one panel was k x nr floats, mostly the
// zeros of its padding, written and then read a line per k entry (EfficientNet-B0's
// 1152 -> 48: 147 KB for 4.6 KB of B).
constexpr int64_t kNarrowColumns = 4;

// Whether B's rows, `stride_bytes` apart, start in at least 16 of L1's 64 sets (64-byte
// lines, 4 KiB per way). A tile reads one line of every row; rows a multiple of 1 KiB
// apart share 4 sets and evict each other (MobileNetV2's 112 x 112 planes, 49 KiB apart:
// read in place, its 16-channel projection got 25-30% slower, so those are packed).
bool rows_spread_over_l1(int64_t stride_bytes) {
  const int64_t step = stride_bytes % 4096;
  return step != 0 && 4096 / std::gcd<int64_t>(step, 4096) >= 16;
}

// A task computes the tiles of a range of A panels (a group, walked in L2-sized chunks)
// against a range of B panels (a block).
struct Tiling {
  bool b_in_place = false;  // full B panels read from B itself (see kInPlaceBMaxAPanels)
  bool b_narrow = false;  // and the last, partial one too: B is a compact copy (see kNarrowColumns)
  bool large_b_in_place = false;  // and because B is large (see kInPlaceBMinBytes)
  bool rows_over_b_in_place = false;  // and because A has more rows (see kInPlaceBMinColumns)
  bool rows_outer = false;  // each A panel against the whole B block (see kShortK)
  int64_t m_panels = 0, n_panels = 0;
  int64_t chunk_panels = 0;  // A panels per chunk
  int64_t group_panels = 0;  // A panels per task
  int64_t block_panels = 0;  // B panels per task
  int64_t m_groups = 0, n_blocks = 0;
  int64_t tasks() const { return m_groups * n_blocks; }
};

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// `rows_only`: only A's rows are split over the tasks, B's columns blocked as if made while
// running (B packed for this product by b_per_thread, or read in place: rows_over_b_in_place).
Tiling plan_tiling(const F32Product& p, const kernels::F32GemmKernel& kernel, int threads, bool rows_only = false) {
  Tiling t;
  const int64_t k = std::max<int64_t>(p.k, 1);
  t.m_panels = kernels::panel_count(p.m, kernel.mr);
  t.n_panels = kernels::panel_count(p.n, kernel.nr);
  t.chunk_panels = std::clamp<int64_t>(kAChunkBytes / (k * kernel.mr * 4), 1, t.m_panels);
  const bool large_b = p.n >= kInPlaceBMinColumns && k * p.n * int64_t{sizeof(float)} >= kInPlaceBMinBytes &&
                       (t.m_panels <= kInPlaceLargeBMaxAPanels || k <= kInPlaceL1Depth);
  const bool rows_over_b = p.a.packed && p.m > p.n && p.n >= kInPlaceBMinColumns;
  t.b_in_place = !p.b.packed && !p.b.fill && p.b.outer_stride == 1 &&
                 (t.m_panels <= kInPlaceBMaxAPanels || large_b || rows_over_b) &&
                 rows_spread_over_l1(p.b.k_stride * int64_t{sizeof(float)});
  t.large_b_in_place = t.b_in_place && large_b;
  t.rows_over_b_in_place = t.b_in_place && rows_over_b;
  rows_only = rows_only || t.rows_over_b_in_place;
  const bool serial = threads <= 1 || p.m * p.n * k < kSerialWork;
  const int64_t want = serial ? 1 : int64_t{threads} * kTasksPerThread;
  if (p.b.packed && !rows_only) {
    // Tasks of one A chunk each; columns split to feed the threads.
    t.group_panels = t.chunk_panels;
    t.m_groups = ceil_div(t.m_panels, t.group_panels);
    t.n_blocks = std::clamp<int64_t>(ceil_div(want, t.m_groups), 1, t.n_panels);
  } else {
    // Every A panel against a block of B panels made once; rows split only when the
    // columns cannot feed the threads (or always: rows_only).
    t.rows_outer = (serial || rows_only) && k <= kShortK;
    const int64_t most = std::max<int64_t>(1, (t.rows_outer ? kShortKBlockBytes : kBBlockBytes) / (k * kernel.nr * 4));
    t.n_blocks = std::clamp<int64_t>(std::max(ceil_div(t.n_panels, most), rows_only ? 1 : want), 1, t.n_panels);
    t.m_groups = 1;
    t.group_panels = t.m_panels;
  }
  if (t.m_groups * t.n_blocks < want && t.m_panels > t.m_groups) {
    t.m_groups = std::min<int64_t>(t.m_panels, ceil_div(want, t.n_blocks));
    t.group_panels = ceil_div(t.m_panels, t.m_groups);
    t.m_groups = ceil_div(t.m_panels, t.group_panels);
    t.chunk_panels = std::min(t.chunk_panels, t.group_panels);
  }
  t.block_panels = ceil_div(t.n_panels, t.n_blocks);
  t.n_blocks = ceil_div(t.n_panels, t.block_panels);
  return t;
}

struct Scratch {
  float* a = nullptr;  // chunk_panels A panels, when A is not packed
  float* b = nullptr;  // block_panels B panels, when B is not packed
};

// The panel `i` of an operand of `count` rows/columns: its packed panel, or one made into
// `scratch`.
const float* panel_of(const F32Operand& op, int64_t i, int width, int64_t count, int64_t k, float* scratch) {
  if (op.packed) return op.packed + i * k * width;
  if (op.fill) op.fill(i * width, 1, scratch);
  else kernels::f32_pack_panel(op.data, op.outer_stride, op.k_stride, i * width, count, k, width, scratch);
  return scratch;
}

// B panels [first, end) into `out`, one after the other, a few panels at a time (the rows of
// a strided B, or im2col's input rows, read along the row across them).
void make_b_block(const F32Product& p, int nr, int64_t first, int64_t end, float* out) {
  constexpr int64_t kPanelsPerPass = 8;
  const int64_t panel_floats = p.k * nr;
  for (int64_t j = first; j < end; j += kPanelsPerPass) {
    float* dst = out + (j - first) * panel_floats;
    if (p.b.fill) {
      p.b.fill(j * nr, std::min(kPanelsPerPass, end - j), dst);
    } else {
      kernels::f32_pack_panel_block(p.b.data, p.b.outer_stride, p.b.k_stride, p.n, j,
                                    std::min(kPanelsPerPass, end - j), p.k, nr, dst);
    }
  }
}

// Floats from one panel of an operand to the next: packed ones as given, ones made while
// running are packed k * width apart.
int64_t panel_step(const F32Operand& op, int64_t k, int width) {
  return op.packed && op.packed_stride ? op.packed_stride : k * width;
}

void run_task(const F32Product& p, const kernels::F32GemmKernel& kernel, const Tiling& t, int64_t task,
              Scratch s) {
  const int64_t gi = task / t.n_blocks, ni = task % t.n_blocks;
  const int64_t g_first = gi * t.group_panels, g_end = std::min(t.m_panels, g_first + t.group_panels);
  const int64_t b_first = ni * t.block_panels, b_end = std::min(t.n_panels, b_first + t.block_panels);
  const int64_t a_panel = panel_step(p.a, p.k, kernel.mr), b_panel = panel_step(p.b, p.k, kernel.nr);
  const float* b_block = p.b.packed ? p.b.packed + b_first * b_panel : s.b;
  // In place, only a last panel narrower than nr is packed (reading nr columns of its rows
  // would run past B's end).
  const bool partial_last = p.n % kernel.nr != 0 && b_end == t.n_panels;
  if (t.b_in_place) {
    if (partial_last && !t.b_narrow) make_b_block(p, kernel.nr, b_end - 1, b_end, s.b);
  } else if (!p.b.packed) {
    make_b_block(p, kernel.nr, b_first, b_end, s.b);
  }
  kernels::F32TileArgs args;
  args.k = p.k;
  args.ldc = p.ldc;
  args.accumulate = p.accumulate;
  args.epilogue = p.last_part ? &p.epilogue : nullptr;
  for (int64_t a_first = g_first; a_first < g_end; a_first += t.chunk_panels) {
    const int64_t a_end = std::min(g_end, a_first + t.chunk_panels);
    const float* a_chunk = p.a.packed ? p.a.packed + a_first * a_panel : s.a;
    if (!p.a.packed)
      for (int64_t i = a_first; i < a_end; ++i)
        panel_of(p.a, i, kernel.mr, p.m, p.k, s.a + (i - a_first) * a_panel);
    // A panels [i, i + panels) (full ones when more than one) against B panel j.
    const auto tile = [&](int64_t i, int64_t j, int64_t panels = 1) {
      args.a_panels = panels;
      args.col0 = j * kernel.nr;
      args.cols = static_cast<int>(std::min<int64_t>(kernel.nr, p.n - args.col0));
      if (!t.b_in_place) {
        args.b = b_block + (j - b_first) * b_panel;
      } else if (args.cols == kernel.nr || t.b_narrow) {
        args.b = p.b.data + args.col0;
        args.b_stride = p.b.k_stride;
      } else {
        args.b = s.b;
        args.b_stride = 0;
      }
      args.a = a_chunk + (i - a_first) * a_panel;
      args.row0 = i * kernel.mr;
      args.rows = static_cast<int>(std::min<int64_t>(kernel.mr, p.m - args.row0));
      args.c = p.c + args.row0 * p.ldc + args.col0;
      kernel.tile(args);
    };
    if (t.b_narrow && a_panel == p.k * kernel.mr) {
      // One B panel of a few columns: the full A panels in one call, then a partial one.
      const int64_t full_end = std::min(a_end, p.m / kernel.mr);
      if (full_end > a_first) tile(a_first, b_first, full_end - a_first);
      for (int64_t i = std::max(a_first, full_end); i < a_end; ++i) tile(i, b_first);
    } else if (t.rows_outer) {
      for (int64_t i = a_first; i < a_end; ++i)
        for (int64_t j = b_first; j < b_end; ++j) tile(i, j);
    } else {
      for (int64_t j = b_first; j < b_end; ++j)
        for (int64_t i = a_first; i < a_end; ++i) tile(i, j);
    }
    if (p.after_rows && p.last_part) {
      const int64_t row0 = a_first * kernel.mr, col0 = b_first * kernel.nr;
      p.after_rows(row0, std::min(p.m, a_end * kernel.mr) - row0, col0, std::min(p.n, b_end * kernel.nr) - col0);
    }
  }
}

// Panel scratch of the calling thread (a product never starts another on its thread while
// it runs).
struct GemmPanels;
float* panel_scratch(int64_t floats) { return thread_scratch<GemmPanels>(floats); }

Status run_tiles(ThreadPool& pool, const kernels::F32GemmKernel& kernel, const F32Product& p, const Tiling& t);

// Weights as A (packed) against a B made while running (a convolution's input, strided or
// im2col) with fewer columns than A has rows (ResNet-50's 1024 x 256 weights against 196
// positions, 512 x 4608 against 49): tasks that split B's columns each read all the
// weights, from memory in a model, and tasks that split A's rows would each make all of B.
// B is made once per thread instead, each thread its own copy in a buffer of the calling
// thread's; then the tasks split A's rows only (ResNet-50 at 2 threads: its 1x1 and
// stride-2 convolutions 0.77-0.90x per node). One copy shared by the threads, made by all
// of them and read by all, crossed between cores: on the Zen 5 VM with its vCPUs on
// different CCDs, ResNet-50's 256 -> 1024 1x1 at 14 x 14 took 0.94x with a copy per thread,
// the whole model at 2 threads 0.98x. (Making B does not get faster with more threads
// then; measured at 2 only.)
// So are products at most kShortK deep with rows enough to share evenly, so that each
// thread writes whole rows of C (see kShortK; at 2 threads ResNet-50's 64 -> 256 1x1
// convolutions with their residual at 56 x 56 went from 0.76-0.88 to 0.62-0.65 ms, and
// MobileNetV2's 16 -> 96 expansion at 112 x 112 from 0.43-0.51 to 0.27-0.34 ms).
// A B large enough to read in place is not made at all (see kInPlaceBMinBytes).
bool b_per_thread(const F32Product& p, const Tiling& t, int threads) {
  if (!p.a.packed || p.b.packed || t.tasks() <= 1 || t.large_b_in_place || t.rows_over_b_in_place || t.b_narrow)
    return false;
  return p.m > p.n || (p.k <= kShortK && !t.b_in_place && t.m_panels >= 4 * int64_t{threads});
}

Status run_with_own_b(ThreadPool& pool, const kernels::F32GemmKernel& kernel, const F32Product& p, const Tiling& t) {
  const int64_t b_floats = t.n_panels * p.k * kernel.nr;
  float* b = panel_scratch(pool.size() * b_floats);
  if (!b)
    return out_of_memory("no memory for " + std::to_string(pool.size() * b_floats * 4) + " bytes of GEMM panels");
  F32Product packed = p;
  packed.b = F32Operand{};
  packed.b.packed = b;
  const Tiling rows = plan_tiling(packed, kernel, pool.size(), true);
  // As in run_tiles: each slot claims tasks until none is left; it makes its copy of B
  // once it has a task (a thread that comes late makes none).
  ShareClaims claims(rows.tasks(), pool.size());
  pool.parallel_for(std::min<int64_t>(pool.size(), rows.tasks()), 1, [&](int64_t begin, int64_t end) {
    for (int64_t slot = begin; slot < end; ++slot) {
      int64_t task = claims.claim();
      if (task < 0) return;
      F32Product own = packed;
      own.b.packed = b + slot * b_floats;
      make_b_block(p, kernel.nr, 0, t.n_panels, b + slot * b_floats);
      for (; task >= 0; task = claims.claim()) run_task(own, kernel, rows, task, Scratch{});
    }
  });
  return Status::ok();
}

struct NarrowB;  // owner of a narrow B's compact copy (thread scratch)

// A product of at most kNarrowColumns columns with a strided B: B copied compactly, with nr
// zeros after it (a tile may read a whole vector of columns from its last k entry on), and
// read in place by every tile.
Status run_narrow(ThreadPool& pool, const kernels::F32GemmKernel& kernel, const F32Product& p) {
  const int64_t floats = p.k * p.n + kernel.nr;
  float* b = thread_scratch<NarrowB>(floats);
  if (!b) return out_of_memory("no memory for " + std::to_string(floats * 4) + " bytes of a narrow GEMM operand");
  for (int64_t d = 0; d < p.k; ++d)
    for (int64_t j = 0; j < p.n; ++j) b[d * p.n + j] = p.b.data[j * p.b.outer_stride + d * p.b.k_stride];
  std::fill(b + p.k * p.n, b + floats, 0.0f);
  F32Product narrow = p;
  narrow.b = F32Operand{};
  narrow.b.data = b;
  narrow.b.outer_stride = 1;
  narrow.b.k_stride = p.n;
  Tiling t = plan_tiling(narrow, kernel, pool.size());
  t.b_in_place = t.b_narrow = true;
  t.large_b_in_place = t.rows_over_b_in_place = false;
  return run_tiles(pool, kernel, narrow, t);
}

// With B packed (weights) the tasks split B's columns, and each would pack the same A panels
// (BERT's activations: at 2 threads six times over; BERT ran 4-15% faster without that).
// Unless they are small (then another pass over the threads costs more than it saves), they
// are packed once instead, the threads sharing the work, into a buffer of the calling
// thread's. A product of a few columns goes to run_narrow.
Status run_whole(ThreadPool& pool, const kernels::F32GemmKernel& kernel, const F32Product& p) {
  constexpr int64_t kSharedAMinBytes = 64 * 1024;
  if (p.n <= kNarrowColumns && p.b.data && !p.b.fill) return run_narrow(pool, kernel, p);
  const Tiling t = plan_tiling(p, kernel, pool.size());
  if (b_per_thread(p, t, pool.size())) return run_with_own_b(pool, kernel, p, t);
  const int64_t panel_floats = p.k * kernel.mr;
  if (p.a.packed || !p.b.packed || t.n_blocks == 1 || t.m_panels * panel_floats * 4 < kSharedAMinBytes)
    return run_tiles(pool, kernel, p, t);
  float* a = panel_scratch(t.m_panels * panel_floats);
  if (!a)
    return out_of_memory("no memory for " + std::to_string(t.m_panels * panel_floats * 4) + " bytes of GEMM panels");
  pool.parallel_for(t.m_panels, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) panel_of(p.a, i, kernel.mr, p.m, p.k, a + i * panel_floats);
  });
  F32Product packed = p;
  packed.a = F32Operand{};
  packed.a.packed = a;
  return run_tiles(pool, kernel, packed, plan_tiling(packed, kernel, pool.size()));
}

// The tasks of tiling `t`, each on the thread that claims it.
Status run_tiles(ThreadPool& pool, const kernels::F32GemmKernel& kernel, const F32Product& p, const Tiling& t) {
  const int64_t slots = std::min<int64_t>(pool.size(), t.tasks());
  const int64_t a_floats = p.a.packed ? 0 : t.chunk_panels * p.k * kernel.mr;
  const int64_t b_floats = p.b.packed || t.b_narrow ? 0 : (t.b_in_place ? 1 : t.block_panels) * p.k * kernel.nr;
  const int64_t per_slot = a_floats + b_floats;
  float* scratch = nullptr;
  if (per_slot > 0) {
    scratch = panel_scratch(per_slot * slots);
    if (!scratch) return out_of_memory("no memory for " + std::to_string(per_slot * slots * 4) + " bytes of GEMM panels");
  }
  // Each slot claims tasks until none is left, its own thread's share first (ShareClaims):
  // a task is computed whole by the thread that claims it, so which thread that is does not
  // change any bit, and a thread slowed down by the machine does not hold up the others.
  ShareClaims claims(t.tasks(), pool.size());
  pool.parallel_for(slots, 1, [&](int64_t begin, int64_t end) {
    for (int64_t slot = begin; slot < end; ++slot) {
      Scratch s;
      if (scratch) {
        s.a = scratch + slot * per_slot;
        s.b = s.a + a_floats;
      }
      for (int64_t task; (task = claims.claim()) >= 0;) run_task(p, kernel, t, task, s);
    }
  });
  return Status::ok();
}

// How many parts to split k into. With B packed in advance (weights) every B panel is used
// by every A panel; when A's panels over all of k overflow L2 (a few hundred rows of
// activations times a k of thousands, like BERT's feed-forward output), each tile streams
// both panels from beyond L1 and L2. Split along k so that all of A's panels of a part fit,
// each part continuing from the sums the last left in C; parts stay at least kMinKPart
// deep so that re-reading C costs little. (Blocking k for every shape, BLIS-style, measured
// slower on Zen 3: docs/performance.md.)
int64_t k_parts(const F32Product& p, const kernels::F32GemmKernel& kernel) {
  if (!p.b.packed || p.a.fill) return 1;
  const int64_t a_bytes = kernels::panel_count(p.m, kernel.mr) * kernel.mr * p.k * int64_t{sizeof(float)};
  const int64_t parts = ceil_div(a_bytes, kAChunkBytes);
  return parts > 1 && p.k / parts >= kMinKPart ? parts : 1;
}

// The part [k0, k0 + depth) of a product split along k.
F32Product k_part(const F32Product& p, const kernels::F32GemmKernel& kernel, int64_t k0, int64_t depth) {
  F32Product part = p;
  part.k = depth;
  part.accumulate = k0 > 0;
  part.last_part = k0 + depth == p.k;
  for (auto [op, width] : {std::pair{&part.a, kernel.mr}, std::pair{&part.b, kernel.nr}}) {
    if (op->packed) {
      op->packed_stride = panel_step(*op, p.k, width);
      op->packed += k0 * width;
    } else {
      op->data += k0 * op->k_stride;
    }
  }
  return part;
}

}  // namespace

Status run_f32_gemm(ThreadPool& pool, const kernels::F32GemmKernel& kernel, const F32Product& p) {
  if (p.m <= 0 || p.n <= 0) return Status::ok();
  const int64_t parts = k_parts(p, kernel);
  if (parts == 1) return run_whole(pool, kernel, p);
  const int64_t depth = ceil_div(p.k, parts);
  for (int64_t k0 = 0; k0 < p.k; k0 += depth)
    TRY(run_whole(pool, kernel, k_part(p, kernel, k0, std::min(depth, p.k - k0))));
  return Status::ok();
}

Status run_f32_gemms(ThreadPool& pool, const kernels::F32GemmKernel& kernel, int64_t count,
                     const std::function<F32Product(int64_t)>& product) {
  if (pool.size() > 1 && count >= 2 * int64_t{pool.size()}) {
    return run_whole_tasks(pool, count,
                           [&](ThreadPool& serial, int64_t i) { return run_f32_gemm(serial, kernel, product(i)); });
  }
  for (int64_t i = 0; i < count; ++i) TRY(run_f32_gemm(pool, kernel, product(i)));
  return Status::ok();
}

const float* constant_f32_data(const Tensor& t, const WidenedConstant& widened) {
  if (const Tensor* w = widened.match(t)) return w->data<float>();
  return t.dtype() == DataType::kFloat ? t.data<float>() : nullptr;
}

Result<PackedF32> pack_f32_constant(const Tensor& t, const WidenedConstant& widened, int64_t groups, int64_t rows,
                                    int64_t k, int64_t outer_stride, int64_t k_stride, int width) {
  PackedF32 packed;
  const float* src = constant_f32_data(t, widened);
  if (!src || t.numel() == 0) return packed;
  const int64_t group_floats = kernels::panel_count(rows, width) * width * k;
  // Every float is written below, the panels' padding too.
  ASSIGN_OR_RETURN(packed.panels, Tensor::create_for_overwrite(DataType::kFloat, {groups, group_floats}));
  for (int64_t g = 0; g < groups; ++g)
    kernels::f32_pack_panels(src + g * rows * k, outer_stride, k_stride, rows, k, width,
                             packed.panels.data<float>() + g * group_floats);
  packed.source = t.raw();
  return packed;
}

}  // namespace twinrt::nn
