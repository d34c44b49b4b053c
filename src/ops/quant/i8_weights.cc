#include "ops/quant/i8_weights.h"

#include <algorithm>

namespace twinrt::quant {
namespace {

bool is_8bit(DataType t) { return t == DataType::kUInt8 || t == DataType::kInt8; }

// Whether products with these packed weights widen the activations and run rows_u16: where
// the kernel has that tile, unless 7-bit weights have a faster one of their own, on bytes.
bool uses_u16_rows(const kernels::I8GemmKernel& kernel, const kernels::I8Panels& weights) {
  return kernel.rows_u16 && !(weights.signed_7bit && kernel.rows_u8_7bit);
}

}  // namespace

std::optional<I8Weights> pack_matmul_weights(Isa isa, const Tensor& b) {
  // Empty weights have nothing to pack (packing them did pointer arithmetic on null data).
  if (!is_8bit(b.dtype()) || b.rank() != 2 || b.numel() == 0) return std::nullopt;
  I8Weights w;
  w.kernel = &kernels::i8_gemm_kernel(isa);
  w.src_unsigned = b.dtype() == DataType::kUInt8;
  const int64_t k = b.dim(0), n = b.dim(1);
  w.parts.resize(1);
  kernels::i8_pack(b.data<uint8_t>(), w.src_unsigned, 1, n, 0, n, k, w.kernel->nr, false, w.parts[0]);
  if (uses_u16_rows(*w.kernel, w.parts[0]) && w.kernel->arrange_wide_cols) w.kernel->arrange_wide_cols(w.parts[0]);
  return w;
}

std::optional<I8Weights> pack_conv_weights(Isa isa, const Tensor& w, int64_t group) {
  if (!is_8bit(w.dtype()) || w.rank() < 3 || group < 1 || w.dim(0) % group != 0 || w.numel() == 0)
    return std::nullopt;
  I8Weights out;
  out.kernel = &kernels::i8_gemm_kernel(isa);
  out.src_unsigned = w.dtype() == DataType::kUInt8;
  const int64_t per_group = w.dim(0) / group, taps = w.numel() / std::max<int64_t>(w.dim(0), 1);
  out.parts.resize(static_cast<size_t>(group));
  for (int64_t g = 0; g < group; ++g)
    kernels::i8_pack(w.data<uint8_t>() + g * per_group * taps, out.src_unsigned, taps, 1, 0, per_group, taps,
                     out.kernel->mr, false, out.parts[static_cast<size_t>(g)]);
  return out;
}

std::vector<int32_t> packed_zeros(const std::vector<int32_t>& zeros, bool src_unsigned, bool to_unsigned) {
  std::vector<int32_t> out(zeros.size());
  for (size_t i = 0; i < zeros.size(); ++i) out[i] = kernels::i8_packed_zero(zeros[i], src_unsigned, to_unsigned);
  return out;
}

void matmul_packed(ThreadPool& pool, const I8Weights& b, const std::vector<int32_t>& b_zero, const uint8_t* a,
                   bool a_unsigned, int32_t a_zero, int64_t rows, const I8BlockStore& store) {
  const kernels::I8GemmKernel& kernel = *b.kernel;
  const kernels::I8Panels& bp = b.parts[0];
  const int64_t n = bp.outer, k = bp.k;
  if (rows <= 0 || n <= 0) return;
  // Row blocks whose packed A stays in L2, so each column panel of B (from L3 or memory: BERT's
  // weights are 85 MB) is read once per block and then stays in L1 while the block's row
  // panels pass under it. Row panel by row panel, B was streamed once per 6 rows.
  constexpr int64_t kRowBlockBytes = 256 * 1024, kChunkPanels = 16;
  const int64_t row_panels = (rows + kernel.mr - 1) / kernel.mr, col_panels = (n + kernel.nr - 1) / kernel.nr;
  const bool widen = uses_u16_rows(kernel, bp);
  const int64_t row_bytes = std::max<int64_t>(k, 1) * (widen ? 2 : 1);
  const int64_t block_panels = std::clamp<int64_t>(kRowBlockBytes / (kernel.mr * row_bytes), 1, row_panels);
  const int64_t row_blocks = (row_panels + block_panels - 1) / block_panels;
  // Column chunks bound the int32 block handed to `store` (it stays in L2) and feed the pool.
  const int64_t chunks = (col_panels + kChunkPanels - 1) / kChunkPanels;
  const int32_t za = kernels::i8_packed_zero(a_zero, a_unsigned, true);
  const int64_t zb_stride = b_zero.size() == 1 ? 0 : 1;
  const bool symmetric = std::all_of(b_zero.begin(), b_zero.end(), [](int32_t z) { return z == 0; });  // no row sums needed
  // Kept by the calling thread (fresh panels of up to 256 KB per call were fresh pages); the
  // workers get a reference, since by name a lambda reaches its own thread's thread_local.
  thread_local std::vector<kernels::I8Panels> kept;
  if (kept.size() < static_cast<size_t>(row_blocks)) kept.resize(static_cast<size_t>(row_blocks));
  std::vector<kernels::I8Panels>& blocks = kept;
  pool.parallel_for(row_blocks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t r0 = i * block_panels * kernel.mr;
      kernels::i8_pack(a, a_unsigned, k, 1, r0, std::min(block_panels * kernel.mr, rows - r0), k, kernel.mr, true,
                       blocks[static_cast<size_t>(i)], !symmetric);
      if (widen) kernels::i8_widen_rows(blocks[static_cast<size_t>(i)]);
    }
  });
  pool.parallel_for(row_blocks * chunks, 1, [&](int64_t begin, int64_t end) {
    thread_local std::vector<int32_t> acc;  // kept: a fresh buffer is fresh pages on every call
    for (int64_t t = begin; t < end; ++t) {
      const kernels::I8Panels& ap = blocks[static_cast<size_t>(t / chunks)];
      const int64_t r0 = (t / chunks) * block_panels * kernel.mr;
      const int64_t cp0 = (t % chunks) * kChunkPanels, cp_count = std::min(kChunkPanels, col_panels - cp0);
      const int64_t c0 = cp0 * kernel.nr, c_count = std::min(cp_count * kernel.nr, n - c0);
      acc.resize(std::max(acc.size(), static_cast<size_t>(ap.outer * c_count)));
      const kernels::I8Operand r{&ap, 0, (ap.outer + kernel.mr - 1) / kernel.mr, &za, 0};
      for (int64_t pj = 0; pj < cp_count; ++pj) {
        const kernels::I8Operand s{&bp, cp0 + pj, 1, b_zero.data(), zb_stride};
        kernels::i8_gemm_packed(kernel, r, s, acc.data() + pj * kernel.nr, c_count);
      }
      store(r0, ap.outer, c0, c_count, acc.data(), c_count);
    }
  });
}

}  // namespace twinrt::quant
