// com.microsoft MatMulNBits: Y = A · dequant(B)ᵀ (+ bias), B block-quantized along K as
// ONNX Runtime's 4-bit weight quantizer writes it for LLM-style models.
//   A           float32 or float16 [..., K] (float16: computed in float32, rounded once)
//   B           uint8 [N, n_blocks, blob_size], n_blocks = ceil(K / block_size),
//               blob_size = block_size * bits / 8; codes packed low bits first
//   scales      A's type, N * n_blocks values (one per block of a column)
//   zero_points optional: uint8 packed like B (each column's row padded to whole bytes), or
//               A's type with one value per block; absent: 2^(bits - 1)
//   g_idx       (deprecated in ONNX Runtime) refused
//   bias        optional, A's type [N]
// w[k][n] = (code - zero_point) * scale. The weights are dequantized to a float32 K x N
// matrix once, at session creation, when B, scales and zero_points are constants, and run
// through the float MatMul path (packed panels); otherwise at every run.
#include <array>

#include "ops/contrib/ms_domain.h"
#include "ops/nn/f32_gemm_driver.h"
#include "ops/nn/gemm_runner.h"
#include "kernels/math/half.h"

namespace twinrt::contrib {
namespace {

enum Input : size_t { kA = 0, kB = 1, kScales = 2, kZeroPoints = 3, kGIdx = 4, kBias = 5 };

struct NBitsShape {
  int64_t k = 0, n = 0, bits = 4, block_size = 0;
  int64_t blocks() const { return (k + block_size - 1) / block_size; }
  int64_t blob_size() const { return block_size * bits / 8; }
  int64_t packed_zero_row() const { return (blocks() * bits + 7) / 8; }  // bytes per column
};

std::string dims(const std::vector<int64_t>& d) { return shape_to_string(d); }

bool is_float(DataType t) { return t == DataType::kFloat || t == DataType::kFloat16; }

// t as float32: itself, or a widened copy of a float16 tensor.
Result<Tensor> widened(const Tensor& t) {
  if (t.dtype() != DataType::kFloat16) return t;
  ASSIGN_OR_RETURN(Tensor f, Tensor::create_for_overwrite(DataType::kFloat, t.shape()));
  const Float16* src = t.data<Float16>();
  for (int64_t i = 0; i < t.numel(); ++i) f.data<float>()[i] = math::to_float(src[i]);
  return f;
}

// Checks B, scales and zero_points against the attributes (at load for constants, at run
// otherwise); the message names the input and what was expected.
Status check_weights(const NBitsShape& s, const Tensor& b, const Tensor& scales, const Tensor* zero) {
  const std::vector<int64_t> want_b = {s.n, s.blocks(), s.blob_size()};
  if (b.dtype() != DataType::kUInt8 || b.shape() != want_b)
    return invalid_argument("B must be uint8 of shape " + dims(want_b) + " (N, ceil(K / block_size), block_size * bits / 8), got " +
                            dtype_name(b.dtype()) + dims(b.shape()));
  if (!is_float(scales.dtype()) || scales.numel() != s.n * s.blocks())
    return invalid_argument("scales must be float32 or float16 with N * n_blocks = " + std::to_string(s.n * s.blocks()) +
                            " values, got " + dtype_name(scales.dtype()) + dims(scales.shape()));
  if (!zero) return Status::ok();
  if (zero->dtype() == DataType::kUInt8 && zero->numel() == s.n * s.packed_zero_row()) return Status::ok();
  if (zero->dtype() == scales.dtype() && zero->numel() == s.n * s.blocks()) return Status::ok();
  return invalid_argument("zero_points must be uint8 with " + std::to_string(s.n * s.packed_zero_row()) +
                          " values (packed) or " + dtype_name(scales.dtype()) + " (scales' type) with " + std::to_string(s.n * s.blocks()) + ", got " +
                          dtype_name(zero->dtype()) + dims(zero->shape()));
}

// The weights as a row-major float32 K x N matrix (MatMul's B). Inputs already checked.
Result<Tensor> dequantize(const NBitsShape& s, const Tensor& b, const Tensor& scales_in, const Tensor* zero_in) {
  ASSIGN_OR_RETURN(Tensor w, Tensor::create_for_overwrite(DataType::kFloat, {s.k, s.n}));
  ASSIGN_OR_RETURN(Tensor scales, widened(scales_in));
  Tensor zero_f;
  if (zero_in) {
    ASSIGN_OR_RETURN(zero_f, widened(*zero_in));
  }
  const Tensor* zero = zero_in ? &zero_f : nullptr;
  float* out = w.data<float>();
  const uint8_t* codes = b.data<uint8_t>();
  const float* scale = scales.data<float>();
  const int64_t nb = s.blocks(), per_byte = 8 / s.bits;
  const unsigned mask = (1u << s.bits) - 1;
  auto code_at = [&](const uint8_t* bytes, int64_t i) {  // i-th code of a packed run, low bits first
    return static_cast<float>((bytes[i / per_byte] >> ((i % per_byte) * s.bits)) & mask);
  };
  for (int64_t n = 0; n < s.n; ++n) {
    for (int64_t blk = 0; blk < nb; ++blk) {
      const int64_t block = n * nb + blk;
      float zp = static_cast<float>(1 << (s.bits - 1));
      if (zero && zero->dtype() == DataType::kFloat) zp = zero->data<float>()[block];
      if (zero && zero->dtype() == DataType::kUInt8) zp = code_at(zero->data<uint8_t>() + n * s.packed_zero_row(), blk);
      const uint8_t* blob = codes + block * s.blob_size();
      // The last block's codes past K are padding.
      const int64_t len = std::min(s.block_size, s.k - blk * s.block_size);
      for (int64_t i = 0; i < len; ++i)
        out[(blk * s.block_size + i) * s.n + n] = (code_at(blob, i) - zp) * scale[block];
    }
  }
  return w;
}

class MatMulNBitsKernel final : public OpKernel {
 public:
  MatMulNBitsKernel(NBitsShape s, Mode mode, const kernels::F32GemmKernel& tile, Tensor weights, nn::PackedF32 panels,
                    std::array<const void*, 3> sources)
      : s_(s), mode_(mode), gemm_(mode), tile_(tile), weights_(std::move(weights)), panels_(std::move(panels)),
        sources_(sources) {}

  Status infer(InferContext& ctx) const override {
    const ir::Shape* a = ctx.shape(kA);
    std::optional<ir::Shape> out;
    if (a && !a->empty()) {
      out = *a;
      out->back() = ir::Dim::of(s_.n);
    }
    ctx.set_output(0, ctx.dtype(kA), out);
    return Status::ok();
  }

  bool keeps_copy_of_input(size_t i) const override { return i >= kB && i <= kZeroPoints && weights_.defined(); }

  Status run(RunContext& ctx) const override {
    ASSIGN_OR_RETURN(const Tensor* a_in, ctx.tensor_input(kA));
    const DataType type = a_in->dtype();
    if (!is_float(type)) return not_implemented(std::string("A must be float32 or float16, got ") + dtype_name(type));
    if (ctx.input(kScales).dtype() != type)
      return invalid_argument(std::string("scales must have A's type ") + dtype_name(type) + ", got " +
                              dtype_name(ctx.input(kScales).dtype()));
    ASSIGN_OR_RETURN(Tensor a_f, widened(*a_in));
    const Tensor* a = &a_f;
    if (a->rank() == 0 || a->shape().back() != s_.k)
      return invalid_argument("A's last dimension must be K = " + std::to_string(s_.k) + ", got shape " +
                              dims(a->shape()));
    Tensor w = weights_;
    bool fed = !w.defined();
    for (size_t i = kB; i <= kZeroPoints; ++i)
      fed = fed || (ctx.has_input(i) ? ctx.input(i).raw() : nullptr) != sources_[i - kB];
    if (fed) {  // weights not constant, or a feed overrides the constants
      ASSIGN_OR_RETURN(const Tensor* b, ctx.tensor_input(kB));
      ASSIGN_OR_RETURN(const Tensor* scales, ctx.tensor_input(kScales));
      const Tensor* zero = ctx.has_input(kZeroPoints) ? &ctx.input(kZeroPoints) : nullptr;
      TRY(check_weights(s_, *b, *scales, zero));
      ASSIGN_OR_RETURN(w, dequantize(s_, *b, *scales, zero));
    }
    const float* bias = nullptr;
    Tensor bias_f;
    if (ctx.has_input(kBias)) {
      ASSIGN_OR_RETURN(const Tensor* t, ctx.tensor_input(kBias));
      if (t->dtype() != type || t->numel() != s_.n)
        return invalid_argument("bias must be " + std::string(dtype_name(type)) + " (A's type) with N = " +
                                std::to_string(s_.n) + " values, got " + dtype_name(t->dtype()) + dims(t->shape()));
      ASSIGN_OR_RETURN(bias_f, widened(*t));
      bias = bias_f.data<float>();
    }
    std::vector<int64_t> out_shape = a->shape();
    out_shape.back() = s_.n;
    ASSIGN_OR_RETURN(Tensor * y_out, ctx.output_for_overwrite(0, type, out_shape));
    Tensor y_f;  // float16 A: the float32 product, rounded into y_out at the end
    if (type == DataType::kFloat16) {
      ASSIGN_OR_RETURN(y_f, Tensor::create_for_overwrite(DataType::kFloat, out_shape));
    }
    Tensor* y = type == DataType::kFloat16 ? &y_f : y_out;
    TRY(multiply(ctx, *a, w, bias, *y));
    if (type == DataType::kFloat16)
      for (int64_t i = 0; i < y->numel(); ++i) y_out->data<Float16>()[i] = math::to_float16(y->data<float>()[i]);
    return Status::ok();
  }

 private:
  // y = a · w (+ bias): A's batch dims fold into rows, B is shared.
  Status multiply(RunContext& ctx, const Tensor& a, const Tensor& w, const float* bias, Tensor& y) const {
    const bool fed = w.raw() != weights_.raw();
    const int64_t m = a.numel() / s_.k;  // batch dims fold into rows: B is shared
    if (mode_ == Mode::kReference) {
      kernels::GemmProblem<float> p;
      p.m = m;
      p.n = s_.n;
      p.k = s_.k;
      p.a = a.data<float>();
      p.a_row_stride = s_.k;
      p.b = w.data<float>();
      p.ldb = s_.n;
      p.c = y.data<float>();
      p.ldc = s_.n;
      nn::parallel_gemm_batch(ctx.pool(), gemm_.get<float>(), {p});
      if (bias)
        for (int64_t i = 0; i < y.numel(); ++i) y.data<float>()[i] += bias[i % s_.n];
      return Status::ok();
    }
    nn::F32Product p;
    p.m = m;
    p.n = s_.n;
    p.k = s_.k;
    p.a.data = a.data<float>();
    p.a.outer_stride = s_.k;
    p.a.k_stride = 1;
    if (panels_.panels.defined() && !fed) {
      p.b.packed = panels_.panels.data<float>();
    } else {
      p.b.data = w.data<float>();
      p.b.outer_stride = 1;
      p.b.k_stride = s_.n;
    }
    p.c = y.data<float>();
    p.ldc = s_.n;
    p.epilogue.bias = bias;  // one value per column
    p.epilogue.bias_cs = 1;
    return nn::run_f32_gemm(ctx.pool(), tile_, p);
  }

  NBitsShape s_;
  Mode mode_;
  nn::GemmKernels gemm_;
  const kernels::F32GemmKernel& tile_;
  Tensor weights_;        // dequantized at creation when the weights are constants
  nn::PackedF32 panels_;  // weights_ as the tile kernel's panels (not in reference mode)
  std::array<const void*, 3> sources_;  // the bytes of the constants B, scales, zero_points dequantized
};

Result<std::unique_ptr<OpKernel>> create_matmul_nbits(const KernelInit& init) {
  TRY(check_inputs(init, 3, 6, {kA, kB, kScales}));
  NBitsShape s;
  ASSIGN_OR_RETURN(s.k, init.attr_int("K", -1));
  ASSIGN_OR_RETURN(s.n, init.attr_int("N", -1));
  ASSIGN_OR_RETURN(s.bits, init.attr_int("bits", 4));
  ASSIGN_OR_RETURN(s.block_size, init.attr_int("block_size", -1));
  // accuracy_level lets ONNX Runtime quantize A to int8 (level 4); twinrt always computes in
  // float32, the most accurate level, which the spec allows for every level.
  ASSIGN_OR_RETURN(int64_t accuracy_level, init.attr_int("accuracy_level", 0));
  (void)accuracy_level;
  // Bounds keep every size product below in int64 (real weights are far smaller).
  constexpr int64_t kMaxDim = int64_t{1} << 31;
  if (s.k <= 0 || s.n <= 0 || s.k >= kMaxDim || s.n >= kMaxDim)
    return init.error("MatMulNBits needs attributes K and N in [1, 2^31), got K = " + std::to_string(s.k) +
                      ", N = " + std::to_string(s.n));
  if (s.bits != 4 && s.bits != 8)
    return init.error("MatMulNBits supports bits = 4 or 8, got " + std::to_string(s.bits));
  if (s.block_size < 16 || s.block_size >= kMaxDim || (s.block_size & (s.block_size - 1)) != 0)
    return init.error("MatMulNBits block_size must be a power of 2 and at least 16, got " + std::to_string(s.block_size));
  if (init.has_input(kGIdx))
    return init.unsupported("MatMulNBits g_idx (act-order GPTQ, deprecated in ONNX Runtime) is not supported");

  auto constant = [&](size_t i) { return i < init.constant_inputs.size() ? init.constant_inputs[i] : nullptr; };
  const Tensor *b = constant(kB), *scales = constant(kScales), *zero = constant(kZeroPoints);
  const kernels::F32GemmKernel& tile = kernels::f32_gemm_kernel(init.isa, init.mode == Mode::kDefault);
  Tensor weights;
  nn::PackedF32 panels;
  if (b && scales && (zero || !init.has_input(kZeroPoints))) {
    if (Status st = check_weights(s, *b, *scales, zero); !st.is_ok()) return init.error(st.message());
    ASSIGN_OR_RETURN(weights, dequantize(s, *b, *scales, zero));
    if (init.mode != Mode::kReference) {
      ASSIGN_OR_RETURN(panels, nn::pack_f32_constant(weights, nn::WidenedConstant{}, 1, s.n, s.k, 1, s.n, tile.nr));
    }
  }
  std::array<const void*, 3> sources{};
  if (weights.defined()) sources = {b->raw(), scales->raw(), zero ? zero->raw() : nullptr};
  return make_kernel<MatMulNBitsKernel>(s, init.mode, tile, std::move(weights), std::move(panels), sources);
}

}  // namespace

TWINRT_REGISTER_MS_OP("MatMulNBits", create_matmul_nbits);

}  // namespace twinrt::contrib
