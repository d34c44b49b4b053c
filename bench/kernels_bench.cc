// Kernel benchmarks: the float32 GEMM tiles of every tier this CPU has, exact and fma,
// through the driver (packing, blocking) on shapes from real models, in GFLOP/s next to
// the tier's measured peak (bench/peak.h). Run: bash scripts/bench-kernels.sh.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/isa.h"
#include "kernels/gemm/f32_gemm.h"
#include "ops/nn/f32_gemm_driver.h"
#include "peak.h"

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

void register_all() {
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
