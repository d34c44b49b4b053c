// A child process that twinrt talks to in lines of text over its stdin and stdout: the
// Node.js engine runner. Reads wait at most a given time, so a hung engine cannot hang
// twinrt; the child is killed when the object goes away.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "twinrt/status.h"

namespace twinrt::engines {

class ChildProcess {
 public:
  // Starts argv[0] (looked up in PATH when it has no '/') with stdin, stdout and stderr
  // connected to this process. A missing program fails with kUnavailable.
  static Result<std::unique_ptr<ChildProcess>> spawn(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes `line` and a newline. Fails with kUnavailable when the child has gone.
  Status write_line(const std::string& line);
  // The next line of its stdout, without the newline. Fails with kUnavailable when the
  // child exits first (the message ends with the last line it wrote to stderr) or when
  // nothing arrives within `timeout_s` seconds (the child is then killed).
  Result<std::string> read_line(double timeout_s);
  // Closes its stdin and waits up to `grace_s` seconds for it to exit, then kills it.
  // Idempotent.
  void stop(double grace_s);
  // The last lines the child wrote to stderr (at most a few KiB).
  const std::string& stderr_tail() const { return stderr_tail_; }

 private:
  ChildProcess(pid_t pid, int in_fd, int out_fd, int err_fd);
  bool drain_stderr();  // false at end of file
  std::string exit_summary();

  pid_t pid_;
  int in_fd_, out_fd_, err_fd_;
  std::string out_buffer_;
  std::string stderr_tail_;
  bool reaped_ = false;
  int wait_status_ = 0;
};

}  // namespace twinrt::engines
