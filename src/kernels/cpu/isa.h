// Instruction-set tiers for the fast kernels, and which ones this CPU can run.
//
// x86-64: avx512 (AVX-512F), avx2 (AVX2 + FMA), scalar (the x86-64 baseline, SSE2).
// WebAssembly: the tier is fixed when the module is built (SIMD128 or baseline) and
// reported as "scalar" with the build's instruction set in isa_description().
#pragma once

#include <string>
#include <vector>

#include "twinrt/session.h"

namespace twinrt::kernels {

// Whether the CPU (and the OS, which must save the wider registers: XGETBV) supports `isa`.
bool isa_supported(Isa isa);
// Every tier isa_supported accepts, scalar first (the tiers tests and benchmarks compare).
std::vector<Isa> supported_isas();
// Whether the CPU has AVX-512 VNNI (with AVX-512BW and OS support): the avx512 tier's
// 8-bit integer products use it when present.
bool cpu_has_avx512_vnni();
// The best tier this machine supports (never kAuto).
Isa best_isa();
// Resolves kAuto (or the TWINRT_ISA environment variable when set, read once) to a tier,
// and checks that the CPU supports it. The error names the tier and what the CPU lacks.
Result<Isa> resolve_isa(Isa requested);
// "avx512 (AVX-512F, 16 floats per vector)"-style text for logs and `inspect`.
std::string isa_description(Isa isa);

}  // namespace twinrt::kernels
