#pragma once

#include <string>
#include <utility>
#include <variant>

namespace spindle {

// A failure a user can act on: one sentence saying what is wrong, where, and
// what to do about it.
struct Error {
  std::string message;
  // What kind of failure it is, where a caller acts on it differently:
  // `authentication` means the cluster did not accept who we are (no valid
  // Kerberos ticket, a refused token); the CLI reports it like an
  // unreachable cluster (exit 3), since no input change fixes it.
  // `not_found` means the cluster answered that what was named does not
  // exist there (an application id it does not know): bad input (exit 2).
  // `refused` means the cluster answered that a request can never be met as
  // it stands (a container larger than any it grants, a label the queue may
  // not use): asking again cannot help.
  // `not_registered` means the ResourceManager no longer knows the
  // application master's registration (it restarted): register again.
  enum class Kind { other, authentication, not_found, refused, not_registered } kind = Kind::other;
  // The Java exception class a Hadoop server named in its answer
  // ("FileNotFoundException", "AccessControlException"), without its
  // package; empty when it named none. For callers whose next step depends
  // on which failure it was, so that none reads the message for it.
  std::string remote_exception = {};
};

// Either a value or the reason there is none. Errors cross library boundaries
// this way instead of as exceptions.
template <typename T, typename E = Error>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  Result(E error) : state_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  // By value from a temporary, so `for (auto& x : *f())` does not dangle.
  T value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T operator*() && { return std::move(*this).value(); }

  const E& error() const { return std::get<1>(state_); }
  E&& take_error() { return std::get<1>(std::move(state_)); }

 private:
  std::variant<T, E> state_;
};

template <typename E>
class [[nodiscard]] Result<void, E> {
 public:
  Result() = default;
  Result(E error) : error_(std::move(error)), ok_(false) {}

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const E& error() const { return error_; }

 private:
  E error_{};
  bool ok_ = true;
};

inline Error make_error(std::string message) {
  return Error{std::move(message)};
}

inline Error authentication_error(std::string message) {
  return Error{std::move(message), Error::Kind::authentication};
}

inline Error not_found_error(std::string message) {
  return Error{std::move(message), Error::Kind::not_found};
}

}  // namespace spindle
