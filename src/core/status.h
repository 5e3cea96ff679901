// Status and StatusOr: errors are values. A Status carries a code and one sentence for the
// user that names the file, line, host or key at fault.
#ifndef VRECON_SRC_CORE_STATUS_H_
#define VRECON_SRC_CORE_STATUS_H_

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "src/core/check.h"

namespace vrecon {

class [[nodiscard]] Status {
 public:
  enum class Code { kOk, kInvalidArgument, kNotFound, kParseError, kIOError, kUnavailable, kNotSupported, kInternal };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string m) { return Status(Code::kInvalidArgument, std::move(m)); }
  static Status NotFound(std::string m) { return Status(Code::kNotFound, std::move(m)); }
  static Status ParseError(std::string m) { return Status(Code::kParseError, std::move(m)); }
  static Status IOError(std::string m) { return Status(Code::kIOError, std::move(m)); }
  static Status Unavailable(std::string m) { return Status(Code::kUnavailable, std::move(m)); }
  static Status Internal(std::string m) { return Status(Code::kInternal, std::move(m)); }
  static Status NotSupported(std::string m) { return Status(Code::kNotSupported, std::move(m)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  bool IsInvalidArgument() const { return code_ == Code::kInvalidArgument; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsParseError() const { return code_ == Code::kParseError; }
  bool IsIOError() const { return code_ == Code::kIOError; }
  // Says, greppably, that a Status is dropped on purpose; every call carries a comment why.
  void IgnoreError() const {}

 private:
  Status(Code c, std::string m) : code_(c), message_(std::move(m)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

// Holds either a value or a non-OK Status. Building one from an OK Status, or reading the
// value of one in error, is a bug and stops the program with a message (VRECON_CHECK): the
// alternative is a default value nobody asked for, or undefined behaviour.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}         // NOLINT(google-explicit-constructor): implicit by design
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT(google-explicit-constructor): implicit by design
    VRECON_CHECK_MSG(!status_.ok(), "StatusOr built from an OK Status: return a value instead");
  }
  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & {
    CheckHasValue();
    return *value_;
  }
  const T& value() const& {
    CheckHasValue();
    return *value_;
  }
  T&& value() && {
    CheckHasValue();
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  void CheckHasValue() const {
    VRECON_CHECK_MSG(value_.has_value(), "(value of a StatusOr in error: " + status_.message() + ")");
  }
  Status status_;
  std::optional<T> value_;
};

}  // namespace vrecon

#define VRECON_CONCAT_INNER(a, b) a##b
#define VRECON_CONCAT(a, b) VRECON_CONCAT_INNER(a, b)

#define RETURN_IF_ERROR(expr)                        \
  do {                                               \
    ::vrecon::Status vrecon_status_ = (expr);        \
    if (!vrecon_status_.ok()) return vrecon_status_; \
  } while (0)

// tmp and lhs name a declaration and an assignment target: they cannot be parenthesized.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                          \
  if (!tmp.ok()) return tmp.status();         \
  lhs = std::move(tmp).value()

#define ASSIGN_OR_RETURN(lhs, expr) ASSIGN_OR_RETURN_IMPL(VRECON_CONCAT(vrecon_sor_, __LINE__), lhs, expr)
// NOLINTEND(bugprone-macro-parentheses)

#endif  // VRECON_SRC_CORE_STATUS_H_
