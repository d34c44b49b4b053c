// Pinning the calling thread to one CPU, for the core_*.cc probes (each built on its own:
// g++ -O2 -pthread tools/core_....cc).
#pragma once

#include <pthread.h>
#include <sched.h>

// Whether the calling thread now runs only on `cpu`.
inline bool pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}
