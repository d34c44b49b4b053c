// The machine's measured float32 peak per tier: independent multiply-add chains, enough of
// them to cover the FMA latency on every port, so the loop runs at issue throughput.
#pragma once

#include <cstdint>

namespace twinrt::bench {

// Runs `iterations` steps of the tier's loop; returns a value that depends on every chain
// (so the compiler keeps them) and sets `flops` to the floating-point operations done.
float peak_scalar(int64_t iterations, double& flops);
float peak_avx2(int64_t iterations, double& flops);
float peak_avx512(int64_t iterations, double& flops);

}  // namespace twinrt::bench
