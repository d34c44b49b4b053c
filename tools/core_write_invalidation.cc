// How long a thread takes to write a buffer that another CPU has just read, against
// rewriting one that only it holds: each write must first take the line from the other core's
// cache. A thread pinned to CPU_B writes the buffer twice (the second time is the baseline),
// hands it to a thread pinned to CPU_A, which reads one float of every line, and writes it
// again. That is what an op's output pays at 2 threads when the op after it, in the run
// before, read it on the other core. On the Zen 5 VM with its vCPUs on two CCDs, 192 KB took
// 27 us against 1.2 (about 7 GB/s), and 4.3 us with them on one (docs/performance.md,
// thirty-second session).
//
//   g++ -O2 -pthread tools/core_write_invalidation.cc -o /tmp/core_write_invalidation
//   /tmp/core_write_invalidation [BYTES [CPU_A CPU_B]]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "cpu_pin.h"

namespace {

constexpr int kRounds = 101;
constexpr size_t kLineFloats = 16;

// Microseconds to write every float of the buffer, a line at a time (copies of 64 bytes are
// vector stores at -O2: the time is the lines', not the stores').
double write_all(std::vector<float>& buffer, int round) {
  float line[kLineFloats];
  std::fill(line, line + kLineFloats, static_cast<float>(round));
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i + kLineFloats <= buffer.size(); i += kLineFloats) std::memcpy(&buffer[i], line, sizeof line);
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const long bytes = argc > 1 ? std::atol(argv[1]) : 196608;
  const int cpu_a = argc > 3 ? std::atoi(argv[2]) : 0, cpu_b = argc > 3 ? std::atoi(argv[3]) : 1;
  if (bytes < 4096) {
    std::fprintf(stderr, "BYTES must be at least 4096, got %ld\n", bytes);
    return 2;
  }
  std::vector<float> buffer(static_cast<size_t>(bytes) / sizeof(float));
  std::atomic<int> handed{0};  // round r is handed to A as 2r+1, back to B as 2r+2
  std::vector<double> own_us, read_by_a_us;
  float sum = 0;
  bool pinned_a = true;
  std::thread reader([&] {
    pinned_a = pin_to(cpu_a);
    for (int r = 0; r < kRounds; ++r) {
      while (handed.load() != 2 * r + 1) {
      }
      for (size_t i = 0; i < buffer.size(); i += kLineFloats) sum += buffer[i];
      handed.store(2 * r + 2);
    }
  });
  const bool pinned_b = pin_to(cpu_b);
  for (int r = 0; r < kRounds; ++r) {
    write_all(buffer, r);
    own_us.push_back(write_all(buffer, r + 1));
    handed.store(2 * r + 1);
    while (handed.load() != 2 * r + 2) {
    }
    read_by_a_us.push_back(write_all(buffer, r + 2));
  }
  reader.join();
  if (!pinned_a || !pinned_b) {
    std::fprintf(stderr, "could not pin to CPUs %d and %d\n", cpu_a, cpu_b);
    return 2;
  }
  const double mb = static_cast<double>(bytes) / 1e6, own = median(own_us), shared = median(read_by_a_us);
  // (the sum is printed as nothing, but printed: the reads cannot be dropped)
  std::printf("%.0f KB written by CPU %d: its own lines %.1f us (%.1f GB/s), lines CPU %d had read %.1f us (%.1f GB/s)%s\n",
              static_cast<double>(bytes) / 1024, cpu_b, own, mb / own * 1e3, cpu_a, shared, mb / shared * 1e3,
              sum == -1.0f ? " " : "");
  return 0;
}
