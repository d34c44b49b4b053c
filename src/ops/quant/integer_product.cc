#include "ops/quant/integer_product.h"

#include <algorithm>

#include "kernels/ref/qgemm_ref.h"
#include "ops/common/dispatch.h"
#include "ops/nn/gemm_runner.h"

namespace twinrt::quant {
namespace {

template <class TA, class TB>
void batched_qgemm(ThreadPool& pool, const nn::MatMulLayout& l, const TA* a, const TB* b,
                   const OperandParams<int32_t>& za, const OperandParams<int32_t>& zb, int32_t* out) {
  for (size_t i = 0; i < l.a_offsets.size(); ++i) {
    kernels::QGemmProblem<TA, TB> p;
    p.m = l.m;
    p.n = l.n;
    p.k = l.k;
    p.a = a + l.a_offsets[i];
    p.lda = l.k;
    p.b = b + l.b_offsets[i];
    p.ldb = l.n;
    p.c = out + static_cast<int64_t>(i) * l.m * l.n;
    p.ldc = l.n;
    p.a_zero = za.values.data();
    p.a_zero_stride = za.stride;
    p.b_zero = zb.values.data();
    p.b_zero_stride = zb.stride;
    nn::parallel_blocks(pool, l.m, l.n, l.k, [&](int64_t m0, int64_t rows, int64_t n0, int64_t cols) {
      kernels::QGemmProblem<TA, TB> q = p;
      q.m = rows;
      q.n = cols;
      q.a += m0 * p.lda;
      q.b += n0;
      q.c += m0 * p.ldc + n0;
      q.a_zero += m0 * p.a_zero_stride;
      q.b_zero += n0 * p.b_zero_stride;
      kernels::qgemm(q);
    });
  }
}

}  // namespace

void packed_product(RunContext& ctx, const Tensor& a, const nn::MatMulLayout& l, const OperandParams<int32_t>& za,
                    const OperandParams<int32_t>& zb, const I8Weights& packed, const I8BlockStore& store) {
  const std::vector<int32_t> b_zero = packed_zeros(zb.values, packed.src_unsigned, false);
  const int64_t rows = l.k == 0 ? 0 : a.numel() / l.k;
  matmul_packed(ctx.pool(), packed, b_zero, a.data<uint8_t>(), a.dtype() == DataType::kUInt8, za.values[0], rows,
                store);
}

Status integer_product(RunContext& ctx, const Tensor& a, const Tensor& b, const nn::MatMulLayout& l,
                       const OperandParams<int32_t>& za, const OperandParams<int32_t>& zb, const I8Weights* packed,
                       int32_t* out) {
  if (packed && za.stride == 0) {
    packed_product(ctx, a, l, za, zb, *packed,
                   [&](int64_t r0, int64_t rows, int64_t c0, int64_t cols, const int32_t* acc, int64_t ld) {
                     for (int64_t i = 0; i < rows; ++i)
                       std::copy(acc + i * ld, acc + i * ld + cols, out + (r0 + i) * l.n + c0);
                   });
    return Status::ok();
  }
  return dispatch<kU8 | kI8>(a.dtype(), [&](auto* ta) {
    return dispatch<kU8 | kI8>(b.dtype(), [&](auto* tb) {
      using TA = std::remove_pointer_t<decltype(ta)>;
      using TB = std::remove_pointer_t<decltype(tb)>;
      batched_qgemm<TA, TB>(ctx.pool(), l, a.data<TA>(), b.data<TB>(), za, zb, out);
      return Status::ok();
    });
  });
}

}  // namespace twinrt::quant
