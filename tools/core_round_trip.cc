// How far apart two CPUs are: the round trip of a cache line between a thread pinned to each.
// On a VM the host may move the vCPUs between cores, CCXs or dies while a benchmark runs;
// 2-thread timings then change with the distance (docs/performance.md, fourteenth session).
//
//   g++ -O2 -pthread tools/core_round_trip.cc -o /tmp/core_round_trip && /tmp/core_round_trip [CPU_A CPU_B]
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "cpu_pin.h"

namespace {

constexpr int kTrips = 20000;

}  // namespace

int main(int argc, char** argv) {
  const int cpu_a = argc > 2 ? std::atoi(argv[1]) : 0, cpu_b = argc > 2 ? std::atoi(argv[2]) : 1;
  alignas(64) static std::atomic<int> turn{0};
  std::atomic<bool> pinned{true};
  // The other thread answers each odd value with the next even one.
  std::thread echo([&] {
    if (!pin_to(cpu_b)) pinned = false;
    for (int i = 0; i < kTrips; ++i) {
      while (turn.load(std::memory_order_acquire) != 2 * i + 1) {
      }
      turn.store(2 * i + 2, std::memory_order_release);
    }
  });
  if (!pin_to(cpu_a)) pinned = false;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kTrips; ++i) {
    turn.store(2 * i + 1, std::memory_order_release);
    while (turn.load(std::memory_order_acquire) != 2 * i + 2) {
    }
  }
  const auto end = std::chrono::steady_clock::now();
  echo.join();
  if (!pinned) {
    std::fprintf(stderr, "core_round_trip: cannot pin threads to CPUs %d and %d\n", cpu_a, cpu_b);
    return 2;
  }
  std::printf("round trip %.1f ns (CPUs %d and %d)\n",
              std::chrono::duration<double, std::nano>(end - start).count() / kTrips, cpu_a, cpu_b);
  return 0;
}
