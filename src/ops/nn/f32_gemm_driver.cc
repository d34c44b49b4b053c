#include "ops/nn/f32_gemm_driver.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <new>
#include <vector>

namespace twinrt::nn {
namespace {

// Cache blocking in the manner of BLIS: depth in k blocks, so that a B panel's block (kc x
// nr) stays in L1 while every A panel of a block runs against it; A blocks (mc x kc) sized
// for L2, B blocks (kc x nc) for L2 next to them. Tiles of later k blocks continue from
// the partial sums in C (F32TileArgs::accumulate: the bits of one pass).
constexpr int64_t kBPanelBytes = 16 * 1024;
constexpr int64_t kABlockBytes = 160 * 1024;
constexpr int64_t kBBlockBytes = 256 * 1024;
// Below this many multiply-adds a product runs on the calling thread.
constexpr int64_t kSerialWork = 1 << 17;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// A task computes the tiles of a range of A panels (a group) against a range of B panels
// (a block), walking them in cache blocks: for each block of the outer operand (the one
// packed while running, so that it is packed once) and each k block, every block of the
// inner operand.
struct Tiling {
  int64_t m_panels = 0, n_panels = 0;
  int64_t kc = 0, k_blocks = 0;
  int64_t m_chunk = 0, n_chunk = 0;  // panels per cache block
  int64_t group_panels = 0, block_panels = 0;  // panels per task
  int64_t m_groups = 0, n_blocks = 0;
  bool a_outer = false;
  int64_t tasks() const { return m_groups * n_blocks; }
};

Tiling plan_tiling(const F32Product& p, const kernels::F32GemmKernel& kernel, int threads) {
  Tiling t;
  t.m_panels = kernels::panel_count(p.m, kernel.mr);
  t.n_panels = kernels::panel_count(p.n, kernel.nr);
  // k blocks of equal depth, each a multiple of the fill's unit.
  const int64_t unit = std::max<int64_t>(p.b.fill ? p.b.fill_k_unit : 1, 1);
  const int64_t most = std::max<int64_t>(unit, kBPanelBytes / (kernel.nr * 4) / unit * unit);
  t.k_blocks = std::max<int64_t>(1, ceil_div(p.k, most));
  t.kc = std::max<int64_t>(unit, ceil_div(ceil_div(p.k, t.k_blocks), unit) * unit);
  t.k_blocks = std::max<int64_t>(1, ceil_div(p.k, t.kc));
  t.m_chunk = std::clamp<int64_t>(kABlockBytes / (t.kc * kernel.mr * 4), 1, t.m_panels);
  t.n_chunk = std::clamp<int64_t>(kBBlockBytes / (t.kc * kernel.nr * 4), 1, t.n_panels);
  t.a_outer = p.b.packed && !p.a.packed;
  // Tasks that split the rows of C each read all of B, tasks that split its columns all of
  // A: split first the dimension that repeats the smaller operand (one packed while running
  // counts double: it is written and read again), then the other when threads are idle.
  const bool serial = threads <= 1 || p.m * p.n * std::max<int64_t>(p.k, 1) < kSerialWork;
  const int64_t want = serial ? 1 : int64_t{threads} * 3;
  const int64_t a_cost = p.m * (p.a.packed ? 1 : 2), b_cost = p.n * (p.b.packed ? 1 : 2);
  const bool columns_first = a_cost <= b_cost;
  const int64_t first_panels = columns_first ? t.n_panels : t.m_panels;
  const int64_t second_panels = columns_first ? t.m_panels : t.n_panels;
  const int64_t first_tasks = std::min(first_panels, want);
  const int64_t second_tasks = std::min(second_panels, ceil_div(want, first_tasks));
  const int64_t first_size = ceil_div(first_panels, first_tasks), second_size = ceil_div(second_panels, second_tasks);
  t.group_panels = columns_first ? second_size : first_size;
  t.block_panels = columns_first ? first_size : second_size;
  t.m_groups = ceil_div(t.m_panels, t.group_panels);
  t.n_blocks = ceil_div(t.n_panels, t.block_panels);
  return t;
}

// One operand's share of a task, and where its panels come from.
struct Side {
  const F32Operand& op;
  int64_t count;  // rows of A or columns of B
  int width;      // mr or nr
  int64_t first, end;  // the task's panels
  int64_t chunk;       // panels per cache block
  float* scratch;      // room for a block packed while running
};

// Panels [p0, p1) of a side over depth [k0, k0 + kl): the first panel, and the distance
// between panels in `stride`.
const float* block_of(const Side& s, int64_t k, int64_t p0, int64_t p1, int64_t k0, int64_t kl, int64_t& stride) {
  if (s.op.packed) {
    stride = k * s.width;
    return s.op.packed + p0 * stride + k0 * s.width;
  }
  stride = kl * s.width;
  if (s.op.fill) {
    for (int64_t i = p0; i < p1; ++i) s.op.fill(i * s.width, k0, kl, s.scratch + (i - p0) * stride);
  } else {
    kernels::f32_pack_panel_block(s.op.data + k0 * s.op.k_stride, s.op.outer_stride, s.op.k_stride, s.count, p0,
                                  p1 - p0, kl, s.width, s.scratch);
  }
  return s.scratch;
}

struct Block {
  int64_t first, end;  // panels
  const float* data;
  int64_t stride;      // floats between panels
};

// Every tile of an A block against a B block: each B panel against all the A panels (the
// B panel stays in L1, the A block in L2).
void run_tiles(const F32Product& p, const kernels::F32GemmKernel& kernel, const Block& a, const Block& b,
               kernels::F32TileArgs& args) {
  for (int64_t j = b.first; j < b.end; ++j) {
    args.b = b.data + (j - b.first) * b.stride;
    args.col0 = j * kernel.nr;
    args.cols = static_cast<int>(std::min<int64_t>(kernel.nr, p.n - args.col0));
    for (int64_t i = a.first; i < a.end; ++i) {
      args.a = a.data + (i - a.first) * a.stride;
      args.row0 = i * kernel.mr;
      args.rows = static_cast<int>(std::min<int64_t>(kernel.mr, p.m - args.row0));
      args.c = p.c + args.row0 * p.ldc + args.col0;
      kernel.tile(args);
    }
  }
}

struct Scratch {
  float* a = nullptr;  // an A block, when A is not packed
  float* b = nullptr;  // a B block, when B is not packed
};

void run_task(const F32Product& p, const kernels::F32GemmKernel& kernel, const Tiling& t, int64_t task,
              Scratch s) {
  const int64_t gi = task / t.n_blocks, ni = task % t.n_blocks;
  Side a{p.a, p.m, kernel.mr, gi * t.group_panels, std::min(t.m_panels, (gi + 1) * t.group_panels), t.m_chunk, s.a};
  Side b{p.b, p.n, kernel.nr, ni * t.block_panels, std::min(t.n_panels, (ni + 1) * t.block_panels), t.n_chunk, s.b};
  const Side& outer = t.a_outer ? a : b;
  const Side& inner = t.a_outer ? b : a;
  kernels::F32TileArgs args;
  args.ldc = p.ldc;
  for (int64_t o0 = outer.first; o0 < outer.end; o0 += outer.chunk) {
    const int64_t o1 = std::min(outer.end, o0 + outer.chunk);
    for (int64_t kb = 0; kb < t.k_blocks; ++kb) {
      const int64_t k0 = kb * t.kc, kl = std::min(t.kc, p.k - k0);
      const bool last = kb + 1 == t.k_blocks;
      args.k = kl;
      args.accumulate = kb > 0;
      args.epilogue = last ? &p.epilogue : nullptr;
      Block ob{o0, o1, nullptr, 0};
      ob.data = block_of(outer, p.k, o0, o1, k0, kl, ob.stride);
      for (int64_t i0 = inner.first; i0 < inner.end; i0 += inner.chunk) {
        Block ib{i0, std::min(inner.end, i0 + inner.chunk), nullptr, 0};
        ib.data = block_of(inner, p.k, ib.first, ib.end, k0, kl, ib.stride);
        const Block& ab = t.a_outer ? ob : ib;
        const Block& bb = t.a_outer ? ib : ob;
        run_tiles(p, kernel, ab, bb, args);
        if (last && p.after_rows) {
          const int64_t row0 = ab.first * kernel.mr, col0 = bb.first * kernel.nr;
          p.after_rows(row0, std::min(p.m, ab.end * kernel.mr) - row0, col0, std::min(p.n, bb.end * kernel.nr) - col0);
        }
      }
    }
  }
}

}  // namespace

Status run_f32_gemm(ThreadPool& pool, const kernels::F32GemmKernel& kernel, const F32Product& p) {
  if (p.m <= 0 || p.n <= 0) return Status::ok();
  const Tiling t = plan_tiling(p, kernel, pool.size());
  const int64_t slots = std::min<int64_t>(pool.size(), t.tasks());
  const int64_t a_floats = p.a.packed ? 0 : t.m_chunk * t.kc * kernel.mr;
  const int64_t b_floats = p.b.packed ? 0 : t.n_chunk * t.kc * kernel.nr;
  const int64_t per_slot = a_floats + b_floats;
  std::unique_ptr<float[]> scratch;
  if (per_slot > 0) {
    scratch.reset(new (std::nothrow) float[static_cast<size_t>(per_slot * slots)]);
    if (!scratch) return out_of_memory("no memory for " + std::to_string(per_slot * slots * 4) + " bytes of GEMM panels");
  }
  // Each slot claims the next task until none is left: a task is computed whole by the
  // thread that claims it, so which thread that is does not change any bit, and a thread
  // slowed down by the machine does not hold up the others.
  std::atomic<int64_t> next_task{0};
  pool.parallel_for(slots, 1, [&](int64_t begin, int64_t end) {
    for (int64_t slot = begin; slot < end; ++slot) {
      Scratch s;
      if (scratch) {
        s.a = scratch.get() + slot * per_slot;
        s.b = s.a + a_floats;
      }
      for (int64_t task; (task = next_task.fetch_add(1, std::memory_order_relaxed)) < t.tasks();)
        run_task(p, kernel, t, task, s);
    }
  });
  return Status::ok();
}

Status run_f32_gemms(ThreadPool& pool, const kernels::F32GemmKernel& kernel, int64_t count,
                     const std::function<F32Product(int64_t)>& product) {
  if (pool.size() > 1 && count >= 2 * int64_t{pool.size()}) {
    std::vector<Status> status(static_cast<size_t>(count));
    pool.parallel_for(count, 1, [&](int64_t begin, int64_t end) {
      ThreadPool serial(1);
      for (int64_t i = begin; i < end; ++i) status[static_cast<size_t>(i)] = run_f32_gemm(serial, kernel, product(i));
    });
    for (Status& st : status) TRY(st);
    return Status::ok();
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
  ASSIGN_OR_RETURN(packed.panels, Tensor::create(DataType::kFloat, {groups, group_floats}));
  for (int64_t g = 0; g < groups; ++g)
    kernels::f32_pack_panels(src + g * rows * k, outer_stride, k_stride, rows, k, width,
                             packed.panels.data<float>() + g * group_floats);
  packed.source = t.raw();
  return packed;
}

}  // namespace twinrt::nn
