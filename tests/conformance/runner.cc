// twinrt_conformance: runs Debian's ONNX backend test data (libonnx-testdata) and checks
// the results against a checked-in expectation list. Each test runs in a forked child so
// that a crash or hang is reported as that test's failure instead of ending the run.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test_case.h"

namespace fs = std::filesystem;
using twinrt::conformance::Outcome;

namespace {

const char* kSuites[] = {"node", "pytorch-converted", "pytorch-operator", "simple"};

struct Args {
  std::string data = "/usr/share/libonnx-testdata/data";
  std::string expect;         // expectation list; empty = every failure is a regression
  std::string write_expect;   // write the current failures as a new list
  std::string digest;         // write "<id> <output digest>" per test, to diff runs for bit-identity
  std::vector<std::string> filters;
  twinrt::SessionOptions options;
  int timeout_s = 120;
  bool isolate = true;
  bool verbose = false;
};

void usage() {
  std::cerr << "usage: twinrt_conformance [--data DIR] [--mode default|exact|reference] [--threads N]\n"
               "         [--isa auto|avx512|avx2|scalar] [--filter SUBSTRING]... [--expect FILE]\n"
               "         [--write-expect FILE] [--digest FILE]\n"
               "         [--timeout SECONDS] [--no-isolate] [--verbose]\n";
}

bool parse_args(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    auto next = [&](std::string& out) {
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    std::string v;
    if (k == "--data" && next(a.data)) continue;
    if (k == "--expect" && next(a.expect)) continue;
    if (k == "--write-expect" && next(a.write_expect)) continue;
    if (k == "--digest" && next(a.digest)) continue;
    if (k == "--isa" && next(v)) {
      auto isa = twinrt::parse_isa(v);
      if (!isa) { std::cerr << isa.status().message() << "\n"; return false; }
      a.options.isa = *isa;
      continue;
    }
    if (k == "--filter" && next(v)) { a.filters.push_back(v); continue; }
    if (k == "--mode" && next(v)) {
      auto m = twinrt::parse_mode(v);
      if (!m) { std::cerr << m.status().message() << "\n"; return false; }
      a.options.mode = *m;
      continue;
    }
    if (k == "--threads" && next(v)) { a.options.threads = std::atoi(v.c_str()); continue; }
    if (k == "--timeout" && next(v)) { a.timeout_s = std::atoi(v.c_str()); continue; }
    if (k == "--no-isolate") { a.isolate = false; continue; }
    if (k == "--verbose") { a.verbose = true; continue; }
    std::cerr << "unknown or incomplete argument '" << k << "'\n";
    return false;
  }
  return true;
}

// Expected failures: "<suite>/<test> <all|default|exact|reference> <reason...>".
std::map<std::string, std::string> read_expectations(const std::string& path, twinrt::Mode mode, bool& ok) {
  std::map<std::string, std::string> out;
  ok = true;
  if (path.empty()) return out;
  std::ifstream f(path);
  if (!f) { std::cerr << "cannot read expectation list " << path << "\n"; ok = false; return out; }
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    std::string id, modes, reason;
    s >> id >> modes;
    std::getline(s, reason);
    if (modes != "all" && modes != twinrt::mode_name(mode)) continue;
    out[id] = reason;
  }
  return out;
}

Outcome run_isolated(const std::string& dir, const Args& a) {
  if (!a.isolate) return twinrt::conformance::run_test_case(dir, a.options);
  int fds[2];
  if (pipe(fds) != 0) return {false, "pipe failed"};
  pid_t pid = fork();
  if (pid < 0) return {false, "fork failed"};
  if (pid == 0) {
    close(fds[0]);
    Outcome o = twinrt::conformance::run_test_case(dir, a.options);
    std::string msg = (o.passed ? "P" : "F") + o.digest + "\n" + o.message;
    ssize_t w = write(fds[1], msg.data(), msg.size());
    (void)w;
    _exit(0);
  }
  close(fds[1]);
  std::string msg;
  char buf[4096];
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(a.timeout_s);
  bool timed_out = false;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) { timed_out = true; break; }
    pollfd p{fds[0], POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(left.count()));
    if (r <= 0) continue;
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) break;
    msg.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (timed_out) return {false, "timed out after " + std::to_string(a.timeout_s) + " s"};
  if (WIFSIGNALED(status)) return {false, "crashed with signal " + std::to_string(WTERMSIG(status))};
  if (msg.empty()) return {false, "test process ended without a result"};
  const size_t eol = msg.find('\n');
  if (eol == std::string::npos) return {false, "test process sent a truncated result"};
  return {msg[0] == 'P', msg.substr(eol + 1), msg.substr(1, eol - 1)};
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!parse_args(argc, argv, a)) { usage(); return 2; }
  bool ok = true;
  auto expected = read_expectations(a.expect, a.options.mode, ok);
  if (!ok) return 2;

  std::vector<std::string> ids;
  for (const char* suite : kSuites) {
    fs::path dir = fs::path(a.data) / suite;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (fs::exists(e.path() / "model.onnx")) ids.push_back(std::string(suite) + "/" + e.path().filename().string());
  }
  if (ids.empty()) { std::cerr << "no ONNX test data under " << a.data << " (install libonnx-testdata)\n"; return 2; }
  std::sort(ids.begin(), ids.end());

  std::ofstream digests;
  if (!a.digest.empty()) {
    digests.open(a.digest);
    if (!digests) { std::cerr << "cannot write " << a.digest << "\n"; return 2; }
  }
  int passed = 0, failed = 0, regressions = 0, fixed = 0;
  std::vector<std::pair<std::string, std::string>> failures;
  for (const auto& id : ids) {
    if (!a.filters.empty() && std::none_of(a.filters.begin(), a.filters.end(),
                                           [&](const std::string& f) { return id.find(f) != std::string::npos; }))
      continue;
    Outcome o = run_isolated((fs::path(a.data) / id).string(), a);
    bool known = expected.count(id) > 0;
    if (digests.is_open()) digests << id << " " << (o.passed ? o.digest : "failed") << "\n";
    if (o.passed) {
      ++passed;
      if (known) { ++fixed; std::cout << "XPASS " << id << " (listed as failing: remove it from the list)\n"; }
      else if (a.verbose) std::cout << "ok    " << id << "\n";
      continue;
    }
    ++failed;
    std::string oneline = o.message.substr(0, o.message.find('\n'));
    failures.emplace_back(id, oneline);
    if (!known) ++regressions;
    if (!known || a.verbose) std::cout << (known ? "xfail " : "FAIL  ") << id << ": " << oneline << "\n";
  }

  if (!a.write_expect.empty()) {
    std::ofstream f(a.write_expect);
    f << "# <suite>/<test> <all|default|exact|reference> <reason>\n";
    for (const auto& [id, why] : failures) f << id << " " << twinrt::mode_name(a.options.mode) << " " << why << "\n";
  }
  std::cout << "unexpected failures: " << regressions << ", listed failures now passing: " << fixed << "\n";
  std::cout << twinrt::mode_name(a.options.mode) << ": " << passed << " passed, " << failed << " failed\n";
  return regressions ? 1 : 0;
}
