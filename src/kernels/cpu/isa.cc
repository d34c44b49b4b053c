#include "kernels/cpu/isa.h"

#include <cstdint>
#include <cstdlib>
#include <mutex>

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#define TWINRT_X86 1
#endif

namespace twinrt::kernels {
namespace {

struct CpuFeatures {
  bool avx2_fma = false;
  bool avx512f = false;
  bool avx512_vnni = false;
};

#ifdef TWINRT_X86
uint64_t read_xcr0() {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (uint64_t{edx} << 32) | eax;
}

CpuFeatures detect() {
  CpuFeatures f;
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
  const bool osxsave = c & bit_OSXSAVE, fma = c & bit_FMA, avx = c & bit_AVX;
  if (!osxsave || !avx) return f;
  const uint64_t xcr0 = read_xcr0();
  const bool ymm_saved = (xcr0 & 0x6) == 0x6;             // SSE and AVX state
  const bool zmm_saved = ymm_saved && (xcr0 & 0xe0) == 0xe0;  // opmask, ZMM0-15 upper, ZMM16-31
  if (__get_cpuid_max(0, nullptr) < 7) return f;
  __cpuid_count(7, 0, a, b, c, d);
  f.avx2_fma = ymm_saved && fma && (b & bit_AVX2);
  f.avx512f = zmm_saved && f.avx2_fma && (b & bit_AVX512F);
  f.avx512_vnni = f.avx512f && (b & bit_AVX512BW) && (c & bit_AVX512VNNI);
  return f;
}
#else
CpuFeatures detect() { return {}; }
#endif

const CpuFeatures& features() {
  static const CpuFeatures f = detect();
  return f;
}

}  // namespace

bool isa_supported(Isa isa) {
  switch (isa) {
    case Isa::kAuto:
    case Isa::kScalar: return true;
    case Isa::kAvx2: return features().avx2_fma;
    case Isa::kAvx512: return features().avx512f;
  }
  return false;
}

std::vector<Isa> supported_isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512})
    if (isa_supported(isa)) out.push_back(isa);
  return out;
}

bool cpu_has_avx512_vnni() { return features().avx512_vnni; }

Isa best_isa() {
  if (isa_supported(Isa::kAvx512)) return Isa::kAvx512;
  if (isa_supported(Isa::kAvx2)) return Isa::kAvx2;
  return Isa::kScalar;
}

Result<Isa> resolve_isa(Isa requested) {
  if (requested == Isa::kAuto) {
    static const Result<Isa> from_env = []() -> Result<Isa> {
      const char* env = std::getenv("TWINRT_ISA");
      if (!env || !*env) return Isa::kAuto;
      auto parsed = parse_isa(env);
      if (!parsed) return invalid_argument("TWINRT_ISA: " + parsed.status().message());
      return *parsed;
    }();
    if (!from_env) return from_env.status();
    requested = from_env.value();
  }
  if (requested == Isa::kAuto) return best_isa();
  if (!isa_supported(requested))
    return invalid_argument(std::string("this CPU cannot run the ") + isa_name(requested) +
                            " kernels (it supports up to " + isa_name(best_isa()) + ")");
  return requested;
}

std::string isa_description(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return "avx512 (AVX-512F, 16 floats per vector)";
    case Isa::kAvx2: return "avx2 (AVX2 + FMA, 8 floats per vector)";
    case Isa::kAuto:
    case Isa::kScalar: break;
  }
#if defined(__wasm_simd128__)
  return "scalar (WebAssembly SIMD128, 4 floats per vector)";
#elif defined(__wasm__)
  return "scalar (WebAssembly without SIMD)";
#else
  return "scalar (baseline instructions, 4 floats per vector)";
#endif
}

}  // namespace twinrt::kernels
