// How fast a thread reads a buffer that another CPU has just written, against one it wrote
// itself: a thread pinned to CPU_A writes the buffer, then reads it; then writes it again and a
// thread pinned to CPU_B reads it. One float per 64-byte line is read, so the figure is lines
// moved, not arithmetic. On the Zen 5 VM with its vCPUs on two CCDs, a tensor written by the
// other vCPU came at a quarter to a half of the speed (docs/performance.md, thirtieth session).
//
//   g++ -O2 -pthread tools/core_read_bandwidth.cc -o /tmp/core_read_bandwidth
//   /tmp/core_read_bandwidth [BYTES [CPU_A CPU_B]]
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "cpu_pin.h"

namespace {

constexpr int kRounds = 20;
constexpr size_t kLineFloats = 16;

void write_all(std::vector<float>& buffer, int round) {
  for (size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<float>(i % 1024 + round);
}

// Microseconds to read one float of every line; `sum` keeps the reads.
double read_lines(const std::vector<float>& buffer, float& sum) {
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < buffer.size(); i += kLineFloats) sum += buffer[i];
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const long bytes = argc > 1 ? std::atol(argv[1]) : 2400000;
  const int cpu_a = argc > 3 ? std::atoi(argv[2]) : 0, cpu_b = argc > 3 ? std::atoi(argv[3]) : 1;
  if (bytes < 4096) {
    std::fprintf(stderr, "BYTES must be at least 4096, got %ld\n", bytes);
    return 2;
  }
  std::vector<float> buffer(static_cast<size_t>(bytes) / sizeof(float));
  std::atomic<int> handed{0};  // round r is handed to B as 2r+1, back to A as 2r+2
  double own_us = 0, other_us = 0;
  float sum_a = 0, sum_b = 0;
  bool pinned_b = true;
  std::thread reader([&] {
    pinned_b = pin_to(cpu_b);
    for (int r = 0; r < kRounds; ++r) {
      while (handed.load() != 2 * r + 1) {
      }
      other_us += read_lines(buffer, sum_b);
      handed.store(2 * r + 2);
    }
  });
  const bool pinned_a = pin_to(cpu_a);
  for (int r = 0; r < kRounds; ++r) {
    write_all(buffer, r);
    own_us += read_lines(buffer, sum_a);
    write_all(buffer, r + 1);
    handed.store(2 * r + 1);
    while (handed.load() != 2 * r + 2) {
    }
  }
  reader.join();
  if (!pinned_a || !pinned_b) {
    std::fprintf(stderr, "could not pin to CPUs %d and %d\n", cpu_a, cpu_b);
    return 2;
  }
  const double mb = static_cast<double>(bytes) / 1e6;
  // (the sums are printed as nothing, but printed: the reads cannot be dropped)
  std::printf("%.0f KB written by CPU %d: read by it %.1f us (%.1f GB/s), by CPU %d %.1f us (%.1f GB/s)%s\n",
              static_cast<double>(bytes) / 1024, cpu_a, own_us / kRounds, mb / (own_us / kRounds) * 1e3, cpu_b,
              other_us / kRounds, mb / (other_us / kRounds) * 1e3, sum_a + sum_b == -1.0f ? " " : "");
  return 0;
}
