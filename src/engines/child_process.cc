#include "engines/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

extern char** environ;

namespace twinrt::engines {
namespace {

constexpr size_t kStderrTailBytes = 8192;
using Clock = std::chrono::steady_clock;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1000 * 60 * 60));
}

std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of("\r\n ");
  if (end == std::string::npos) return "";
  size_t begin = text.find_last_of('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin == std::string::npos ? 0 : begin + 1) + 1);
}

}  // namespace

Result<std::unique_ptr<ChildProcess>> ChildProcess::spawn(const std::vector<std::string>& argv) {
  if (argv.empty()) return invalid_argument("ChildProcess::spawn: no program given");
  // stdin is a socket so writing to a dead child fails with EPIPE (MSG_NOSIGNAL) instead
  // of killing twinrt with SIGPIPE.
  int in_pair[2], out_pipe[2], err_pipe[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in_pair) != 0)
    return io_error(std::string("socketpair: ") + std::strerror(errno));
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(in_pair[0]);
    ::close(in_pair[1]);
    return io_error(std::string("pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pair[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in_pair[1]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (rc != 0) {
    ::close(in_pair[0]);
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return Status(StatusCode::kUnavailable, "cannot start '" + argv[0] + "': " + std::strerror(rc));
  }
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, in_pair[0], out_pipe[0], err_pipe[0]));
}

ChildProcess::ChildProcess(pid_t pid, int in_fd, int out_fd, int err_fd)
    : pid_(pid), in_fd_(in_fd), out_fd_(out_fd), err_fd_(err_fd) {}

ChildProcess::~ChildProcess() {
  stop(0);
  close_fd(out_fd_);
  close_fd(err_fd_);
}

Status ChildProcess::write_line(const std::string& line) {
  const std::string data = line + "\n";
  size_t done = 0;
  while (done < data.size()) {
    if (in_fd_ < 0) return Status(StatusCode::kUnavailable, "the process has exited" + exit_summary());
    const ssize_t n = ::send(in_fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status(StatusCode::kUnavailable, "the process has exited" + exit_summary());
    done += static_cast<size_t>(n);
  }
  return Status::ok();
}

bool ChildProcess::drain_stderr() {
  char buf[4096];
  const ssize_t n = ::read(err_fd_, buf, sizeof buf);
  if (n < 0 && errno == EINTR) return true;
  if (n <= 0) {
    close_fd(err_fd_);
    return false;
  }
  stderr_tail_.append(buf, static_cast<size_t>(n));
  if (stderr_tail_.size() > kStderrTailBytes) stderr_tail_.erase(0, stderr_tail_.size() - kStderrTailBytes);
  return true;
}

Result<std::string> ChildProcess::read_line(double timeout_s) {
  const Clock::time_point deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000.0));
  while (true) {
    const size_t newline = out_buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = out_buffer_.substr(0, newline);
      out_buffer_.erase(0, newline + 1);
      return line;
    }
    if (out_fd_ < 0) return Status(StatusCode::kUnavailable, "the process has exited" + exit_summary());
    pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
    const int ready = ::poll(fds, err_fd_ >= 0 ? 2 : 1, remaining_ms(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      stop(0);
      return Status(StatusCode::kUnavailable, "no answer within " + std::to_string(static_cast<int>(timeout_s)) +
                                                  " s; the process was stopped");
    }
    if (err_fd_ >= 0 && (fds[1].revents & (POLLIN | POLLHUP))) drain_stderr();
    if (fds[0].revents & (POLLIN | POLLHUP)) {
      char buf[65536];
      const ssize_t n = ::read(out_fd_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) close_fd(out_fd_);
      else out_buffer_.append(buf, static_cast<size_t>(n));
    }
  }
}

void ChildProcess::stop(double grace_s) {
  close_fd(in_fd_);
  const Clock::time_point deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(grace_s * 1000.0));
  while (!reaped_) {
    const pid_t r = ::waitpid(pid_, &wait_status_, WNOHANG);
    if (r == pid_ || (r < 0 && errno != EINTR)) {
      reaped_ = true;
      break;
    }
    if (Clock::now() >= deadline) {
      ::kill(pid_, SIGKILL);
      while (::waitpid(pid_, &wait_status_, 0) < 0 && errno == EINTR) {}
      reaped_ = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// " (exit code 1: <last stderr line>)" once the child has gone.
std::string ChildProcess::exit_summary() {
  stop(2);
  // Its last words; a grandchild holding stderr open must not block us.
  while (err_fd_ >= 0) {
    pollfd fd = {err_fd_, POLLIN, 0};
    if (::poll(&fd, 1, 200) <= 0 || !drain_stderr()) break;
  }
  std::string how;
  if (WIFEXITED(wait_status_)) how = "exit code " + std::to_string(WEXITSTATUS(wait_status_));
  else if (WIFSIGNALED(wait_status_)) how = std::string("signal ") + strsignal(WTERMSIG(wait_status_));
  const std::string err = last_line(stderr_tail_);
  return " (" + how + (err.empty() ? "" : ": " + err) + ")";
}

}  // namespace twinrt::engines
