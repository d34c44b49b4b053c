// Errors as values. No exception, abort or assert is reachable from a model file,
// an input tensor or a CLI argument: every failure travels back as a Status.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace twinrt {

enum class StatusCode {
  kOk = 0,
  kInvalidModel,     // the model file is malformed or violates the ONNX spec
  kInvalidArgument,  // bad input tensor, option or flag
  kNotImplemented,   // valid ONNX that twinrt cannot run (yet)
  kIoError,          // file missing, unreadable, mmap failed
  kOutOfMemory,      // an allocation was refused or a size overflowed
  kInternal,         // a bug in twinrt
  kUnavailable,      // an external engine or tool is not installed or cannot start
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() { return {}; }
  bool is_ok() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return is_ok(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefixes context ("node 'conv1' (Conv): ") to an error; no-op on success.
  Status with_context(const std::string& prefix) const {
    if (is_ok()) return *this;
    return Status(code_, prefix + message_);
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status invalid_model(std::string m) { return {StatusCode::kInvalidModel, std::move(m)}; }
inline Status invalid_argument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
inline Status not_implemented(std::string m) { return {StatusCode::kNotImplemented, std::move(m)}; }
inline Status io_error(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
inline Status out_of_memory(std::string m) { return {StatusCode::kOutOfMemory, std::move(m)}; }
inline Status internal_error(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}   // NOLINT: must be an error
  bool is_ok() const { return v_.index() == 0; }
  explicit operator bool() const { return is_ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  Status status() const { return is_ok() ? Status::ok() : std::get<1>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace twinrt

#define TWINRT_CONCAT_INNER(a, b) a##b
#define TWINRT_CONCAT(a, b) TWINRT_CONCAT_INNER(a, b)

// Returns the Status from the enclosing function if `expr` failed.
#define TRY(expr)                               \
  do {                                          \
    ::twinrt::Status _st = (expr);              \
    if (!_st.is_ok()) return _st;               \
  } while (0)

// `ASSIGN_OR_RETURN(auto x, f())`: unwraps a Result or returns its error.
#define ASSIGN_OR_RETURN(lhs, rexpr) \
  ASSIGN_OR_RETURN_IMPL(TWINRT_CONCAT(_res_, __LINE__), lhs, rexpr)
#define ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                          \
  if (!tmp.is_ok()) return tmp.status();       \
  lhs = std::move(tmp).value()
