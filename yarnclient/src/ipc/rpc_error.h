#pragma once

#include <string>

#include "spindle/core/result.h"

namespace spindle::yarn::ipc {

// Why a call did not return a response.
struct RpcError {
  enum class Kind {
    unreachable,     // no connection could be made
    lost,            // the connection broke before the answer came
    timed_out,       // no answer in time
    remote,          // the server answered with an exception
    protocol,        // the server sent something no Hadoop server sends
    authentication,  // we could not prove who we are (no Kerberos ticket, wrong server principal)
  };
  RpcError() = default;
  RpcError(Kind kind_of_error, std::string text, std::string java_class = {})
      : kind(kind_of_error), message(std::move(text)), exception_class(std::move(java_class)) {}

  Kind kind = Kind::protocol;
  std::string message;          // one sentence for a person
  std::string exception_class;  // for remote errors: the Java exception's class

  // The exception's class without its package, as Error::remote_exception
  // holds it; empty when the server named none.
  std::string remote_exception() const {
    const auto dot = exception_class.rfind('.');
    return dot == std::string::npos ? exception_class : exception_class.substr(dot + 1);
  }
  // An Error saying `sentence` that keeps which exception the server named,
  // so that callers decide by the class, not by the words.
  Error to_error(std::string sentence) const {
    Error error = make_error(std::move(sentence));
    error.remote_exception = remote_exception();
    return error;
  }
};

}  // namespace spindle::yarn::ipc
