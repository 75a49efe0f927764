// Status and Result<T>: cheap, exception-free error reporting across module
// boundaries (after absl::Status and leveldb::Status).
//
// A Status is OK or carries a canonical code plus a human-readable message.
// Messages for bad user input name the file, line and field, e.g.
//   "philly.csv:17: column 'duration': '-5' is negative".
#ifndef SCHEDMATE_CORE_STATUS_H_
#define SCHEDMATE_CORE_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace schedmate {

// Canonical codes. What a caller should do with each:
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,     // Bad input (file, flag, config). Do not retry; fix input.
  kNotFound,            // A named file/record/policy does not exist.
  kAlreadyExists,       // Creating something that is already there.
  kFailedPrecondition,  // System not in a state to do this (e.g. store closed).
  kOutOfRange,          // A value or offset beyond the valid range.
  kResourceExhausted,   // A size/time/quota cap was hit. Retry only with more.
  kDeadlineExceeded,    // Timed out. May retry with backoff.
  kUnavailable,         // A service is down. Retry with backoff.
  kDataLoss,            // Stored data is corrupt or truncated.
  kPermissionDenied,    // Refused by a safety rule (e.g. path outside root).
  kUnimplemented,       // Not supported (yet).
  kCancelled,           // Caller cancelled.
  kInternal,            // A bug in schedmate. Report it.
  kUnknown,
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // "INVALID_ARGUMENT: message", or "OK".
  std::string ToString() const;

  // Returns a copy whose message is prefixed with `context`: "context: msg".
  Status WithContext(std::string_view context) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status InvalidArgument(std::string m) {
  return {StatusCode::kInvalidArgument, std::move(m)};
}
inline Status NotFound(std::string m) {
  return {StatusCode::kNotFound, std::move(m)};
}
inline Status FailedPrecondition(std::string m) {
  return {StatusCode::kFailedPrecondition, std::move(m)};
}
inline Status OutOfRange(std::string m) {
  return {StatusCode::kOutOfRange, std::move(m)};
}
inline Status ResourceExhausted(std::string m) {
  return {StatusCode::kResourceExhausted, std::move(m)};
}
inline Status DataLoss(std::string m) {
  return {StatusCode::kDataLoss, std::move(m)};
}
inline Status Internal(std::string m) {
  return {StatusCode::kInternal, std::move(m)};
}
inline Status Unimplemented(std::string m) {
  return {StatusCode::kUnimplemented, std::move(m)};
}
inline Status PermissionDenied(std::string m) {
  return {StatusCode::kPermissionDenied, std::move(m)};
}
inline Status Unavailable(std::string m) {
  return {StatusCode::kUnavailable, std::move(m)};
}

// Result<T> holds a T or a non-OK Status (std::expected is C++23).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : data_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(data_).ok() && "Result from an OK Status");
  }

  bool ok() const { return std::holds_alternative<T>(data_); }
  // REQUIRES: !ok() for a meaningful status; returns OK when holding a value.
  Status status() const { return ok() ? Status() : std::get<Status>(data_); }

  // REQUIRES: ok().
  T& value() & { return std::get<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> data_;
};

}  // namespace schedmate

#define SCHEDMATE_CONCAT_INNER(a, b) a##b
#define SCHEDMATE_CONCAT(a, b) SCHEDMATE_CONCAT_INNER(a, b)

// Returns from the enclosing function if `expr` (a Status) is not OK.
#define RETURN_IF_ERROR(expr)                          \
  do {                                                 \
    ::schedmate::Status _sm_status = (expr);           \
    if (!_sm_status.ok()) return _sm_status;           \
  } while (0)

// ASSIGN_OR_RETURN(auto x, MakeX()); declares x from a Result or returns.
#define ASSIGN_OR_RETURN(lhs, expr) \
  ASSIGN_OR_RETURN_IMPL(SCHEDMATE_CONCAT(_sm_result_, __LINE__), lhs, expr)
#define ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                          \
  if (!tmp.ok()) return tmp.status();         \
  lhs = std::move(tmp).value()

#endif  // SCHEDMATE_CORE_STATUS_H_
