// Kernel benchmarks: the float32 GEMM tiles of every tier this CPU has, exact and fma,
// through the driver (packing, blocking) on shapes from real models, in GFLOP/s next to
// the tier's measured peak (bench/peak.h); and the 8-bit NHWC convolution (indirect tiles,
// requantization) in G multiply-adds per second; the float functions over arrays (exp,
// sigmoid, erf of default and exact mode) in elements per second; the float max pool in GB/s
// of input read; the thread pool's handoff. Run: bash
// scripts/bench-kernels.sh.
#include <benchmark/benchmark.h>

#include <atomic>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cpu/isa.h"
#include "kernels/gemm/f32_gemm.h"
#include "kernels/math/fast_float.h"
#include "kernels/portable/maxpool_2d.h"
#include "ops/nn/f32_gemm_driver.h"
#include "ops/quant/conv_nhwc.h"
#include "peak.h"
#include "runtime/thread_pool.h"

namespace twinrt::bench {
namespace {

std::vector<float> random_floats(int64_t n) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = dist(gen);
  return v;
}

void peak(benchmark::State& state, float (*loop)(int64_t, double&)) {
  double flops = 0, total = 0;
  float sink = 0;
  for (auto _ : state) {
    sink += loop(1 << 20, flops);
    total += flops;
  }
  benchmark::DoNotOptimize(sink);
  state.counters["GFLOP/s"] = benchmark::Counter(total / 1e9, benchmark::Counter::kIsRate);
}

// C (m x n) = A (m x k) · B (k x n), the weights packed in advance and the activations
// packed while running: Conv's weights are A (B: im2col or the input's rows), MatMul's and
// Gemm's are B (A: the activation rows).
void gemm(benchmark::State& state, Isa isa, bool fma, bool weights_are_b) {
  const int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  const kernels::F32GemmKernel& kernel = kernels::f32_gemm_kernel(isa, fma);
  const auto a = random_floats(m * k), b = random_floats(k * n);
  std::vector<float> c(static_cast<size_t>(m * n));
  nn::F32Product p;
  p.m = m;
  p.n = n;
  p.k = k;
  std::vector<float> packed;
  if (weights_are_b) {
    packed.resize(static_cast<size_t>(kernels::panel_count(n, kernel.nr) * kernel.nr * k));
    kernels::f32_pack_panels(b.data(), 1, n, n, k, kernel.nr, packed.data());
    p.b.packed = packed.data();
    p.a.data = a.data();
    p.a.outer_stride = k;
    p.a.k_stride = 1;
  } else {
    packed.resize(static_cast<size_t>(kernels::panel_count(m, kernel.mr) * kernel.mr * k));
    kernels::f32_pack_panels(a.data(), k, 1, m, k, kernel.mr, packed.data());
    p.a.packed = packed.data();
    p.b.data = b.data();
    p.b.outer_stride = 1;
    p.b.k_stride = n;
  }
  p.c = c.data();
  p.ldc = n;
  ThreadPool pool(1);
  for (auto _ : state) benchmark::DoNotOptimize(nn::run_f32_gemm(pool, kernel, p));
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * m * n * k * state.iterations() / 1e9, benchmark::Counter::kIsRate);
  state.SetLabel(kernel.name);
}

// A uint8 NHWC convolution, size x size pixels (padding kernel / 2, stride 1) of `c` channels
// to `m`, per-channel int8 weights, requantized to uint8: what QLinearConvNhwc runs.
void i8_conv_nhwc(benchmark::State& state, Isa isa) {
  const int64_t size = state.range(0), c = state.range(1), m = state.range(2), kernel = state.range(3);
  std::mt19937 gen(3);
  auto w = Tensor::create(DataType::kInt8, {m, c, kernel, kernel});
  if (!w.is_ok()) return state.SkipWithError("weights");
  for (int64_t i = 0; i < w->numel(); ++i) w->data<int8_t>()[i] = static_cast<int8_t>(static_cast<int>(gen() % 255) - 127);
  const auto weights = quant::pack_nhwc_conv_weights(isa, *w, true);
  if (!weights) return state.SkipWithError("no NHWC packing");
  const std::vector<int32_t> col_add = quant::fold_nhwc_bias(*weights, std::vector<int32_t>(static_cast<size_t>(m), 100), 128);
  const std::vector<float> multiplier(static_cast<size_t>(m), 1.0f / 4096);
  std::vector<uint8_t> x(static_cast<size_t>(size * size * c)), y(static_cast<size_t>(size * size * m));
  for (uint8_t& v : x) v = static_cast<uint8_t>(gen());
  quant::NhwcConvShape s;
  s.in_h = s.in_w = s.out_h = s.out_w = size;
  s.channels = c;
  s.kernel_h = s.kernel_w = kernel;
  s.pad_top = s.pad_left = kernel / 2;
  ThreadPool pool(1);
  for (auto _ : state) {
    quant::conv_nhwc_u8(pool, s, *weights, x.data(), 128, col_add.data(), multiplier.data(), 3, y.data());
    benchmark::DoNotOptimize(y.data());
  }
  state.counters["GMAC/s"] =
      benchmark::Counter(double(size * size) * m * c * kernel * kernel * state.iterations() / 1e9, benchmark::Counter::kIsRate);
  state.SetLabel(weights->kernel->name);
}

// One float function over 1024 elements (a fused elementwise block: in L1) of [-8, 8].
void float_function(benchmark::State& state, math::F32ArrayFn (*kernel)(Isa), Isa isa) {
  const math::F32ArrayFn f = kernel(isa);
  std::vector<float> x = random_floats(1024), y(x.size());
  for (float& v : x) v *= 8.0f;
  for (auto _ : state) {
    f(x.data(), y.data(), static_cast<int64_t>(x.size()));
    benchmark::DoNotOptimize(y.data());
  }
  state.counters["elements/s"] =
      benchmark::Counter(double(x.size()) * state.iterations(), benchmark::Counter::kIsRate);
}

// A float max pool of `planes` planes of size x size, 3x3 windows at `stride`, `pad` on each
// side, the last window cut at the edge (ceil_mode): the pools of SqueezeNet, GoogLeNet,
// ResNet-50.
void maxpool(benchmark::State& state, Isa isa) {
  const int64_t planes = state.range(0), size = state.range(1), stride = state.range(2), pad = state.range(3);
  const int64_t out = (size + 2 * pad - 3 + stride - 1) / stride + 1;
  const int64_t in_hw[2] = {size, size}, out_hw[2] = {out, out}, kernel[2] = {3, 3}, strides[2] = {stride, stride};
  const int64_t ones[2] = {1, 1}, pads[2] = {pad, pad};
  const kernels::ImageWindow w{2, in_hw, out_hw, kernel, strides, ones, pads, pads};
  const auto x = random_floats(planes * size * size);
  std::vector<float> y(static_cast<size_t>(planes * out * out));
  std::vector<unsigned char> scratch(static_cast<size_t>(kernels::maxpool_2d_scratch_bytes(w, sizeof(float))));
  const kernels::MaxPool2dKernels& kernels = kernels::maxpool_2d_kernels(isa);
  for (auto _ : state) {
    kernels.f32(w, x.data(), y.data(), planes, scratch.data());
    benchmark::DoNotOptimize(y.data());
  }
  state.counters["GB/s"] =
      benchmark::Counter(double(x.size()) * sizeof(float) * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}

// The handoff of one parallel_for with almost no work: what every split op pays to start
// its threads and wait for them (at 2 threads models run 55-290 of them per inference).
void parallel_for_handoff(benchmark::State& state) {
  ThreadPool pool(static_cast<int>(state.range(0)));
  std::atomic<int64_t> sink{0};
  for (auto _ : state)
    pool.parallel_for(pool.size(), 1, [&](int64_t begin, int64_t end) { sink.fetch_add(end - begin); });
  benchmark::DoNotOptimize(sink.load());
}

void register_all() {
  benchmark::RegisterBenchmark("parallel_for_handoff", parallel_for_handoff)->ArgName("threads")->Arg(2);
  struct Tier {
    Isa isa;
    float (*peak)(int64_t, double&);
  };
  std::vector<Tier> tiers = {{Isa::kScalar, peak_scalar}};
#ifdef TWINRT_BENCH_X86
  tiers.push_back({Isa::kAvx2, peak_avx2});
  tiers.push_back({Isa::kAvx512, peak_avx512});
#endif
  for (const Tier& tier : tiers) {
    if (!kernels::isa_supported(tier.isa)) continue;
    const std::string name = isa_name(tier.isa);
    benchmark::RegisterBenchmark(("peak/" + name).c_str(), peak, tier.peak);
    for (bool fma : {false, true}) {
      const std::string suffix = name + (fma ? "/fma" : "/exact");
      auto* conv = benchmark::RegisterBenchmark(("f32_gemm/" + suffix).c_str(), gemm, tier.isa, fma, false);
      conv->ArgNames({"m", "n", "k"});
      conv->Args({256, 256, 256});
      conv->Args({64, 3136, 576});    // ResNet-50 layer1 3x3 conv (56x56)
      conv->Args({512, 49, 4608});    // ResNet-50 layer4 3x3 conv (7x7)
      conv->Args({96, 12544, 16});    // MobileNetV2 expansion 1x1 (112x112)
      conv->Args({24, 3136, 144});    // MobileNetV2 projection 1x1 (56x56)
      conv->Args({576, 196, 96});     // MobileNetV2 expansion 1x1 (14x14)
      auto* matmul = benchmark::RegisterBenchmark(("f32_matmul/" + suffix).c_str(), gemm, tier.isa, fma, true);
      matmul->ArgNames({"m", "n", "k"});
      matmul->Args({128, 768, 768});   // BERT-base projection, sequence 128
      matmul->Args({128, 3072, 768});  // BERT-base feed-forward up
      matmul->Args({128, 768, 3072});  // BERT-base feed-forward down
      matmul->Args({1, 1000, 1280});   // MobileNetV2 classifier, batch 1
    }
    const std::pair<const char*, math::F32ArrayFn (*)(Isa)> functions[] = {
        {"exp_in_float", math::exp_in_float_n_kernel},         {"exp_f32", math::exp_f32_n_kernel},
        {"sigmoid_in_float", math::sigmoid_in_float_n_kernel}, {"sigmoid_f32", math::sigmoid_f32_n_kernel},
        {"erf_in_float", math::erf_in_float_n_kernel},         {"erf_f32", math::erf_f32_n_kernel}};
    for (const auto& [function, kernel] : functions)
      benchmark::RegisterBenchmark(("math/" + std::string(function) + "/" + name).c_str(), float_function, kernel,
                                   tier.isa);
    auto* pool = benchmark::RegisterBenchmark(("maxpool/" + name).c_str(), maxpool, tier.isa);
    pool->ArgNames({"planes", "size", "stride", "pad"});
    pool->Args({64, 111, 2, 0});   // SqueezeNet's first
    pool->Args({128, 55, 2, 0});   // SqueezeNet's second
    pool->Args({256, 27, 2, 0});   // SqueezeNet's third
    pool->Args({64, 112, 2, 0});   // GoogLeNet's first
    pool->Args({64, 112, 2, 1});   // ResNet-50's
    pool->Args({480, 28, 2, 0});   // GoogLeNet's third
    pool->Args({832, 14, 2, 0});   // GoogLeNet's fourth
    pool->Args({480, 28, 1, 1});   // GoogLeNet's branch pools, stride 1
    pool->Args({832, 14, 1, 1});
    pool->Args({832, 7, 1, 1});
    auto* conv8 = benchmark::RegisterBenchmark(("i8_conv_nhwc/" + name).c_str(), i8_conv_nhwc, tier.isa);
    conv8->ArgNames({"size", "c", "m", "kernel"});
    conv8->Args({56, 64, 256, 1});   // ResNet-50 layer1 1x1 expansion
    conv8->Args({56, 256, 64, 1});   // ResNet-50 layer1 1x1 reduction
    conv8->Args({56, 64, 64, 3});    // ResNet-50 layer1 3x3
    conv8->Args({28, 128, 128, 3});  // ResNet-50 layer2 3x3
    conv8->Args({14, 1024, 256, 1}); // ResNet-50 layer3 1x1 reduction
    conv8->Args({14, 256, 256, 3});  // ResNet-50 layer3 3x3
    conv8->Args({7, 512, 512, 3});   // ResNet-50 layer4 3x3
    conv8->Args({7, 512, 2048, 1});  // ResNet-50 layer4 1x1 expansion
  }
}

}  // namespace
}  // namespace twinrt::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  twinrt::bench::register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
