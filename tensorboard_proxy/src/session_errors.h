#pragma once

#include <boost/beast/http/error.hpp>

#include <string>

#include "spindle/tbproxy/proxy_server.h"

namespace spindle::tbproxy {

inline bool is_quiet_end(boost::beast::error_code ec) {
  return ec == boost::beast::http::error::end_of_stream || ec == boost::asio::error::eof ||
         ec == boost::asio::error::connection_reset || ec == boost::asio::error::operation_aborted;
}

inline std::string request_error_sentence(boost::beast::error_code ec, const ProxyOptions& options) {
  if (ec == boost::beast::http::error::bad_content_length) {
    return "The request's Content-Length is not one number, or comes with Transfer-Encoding.";
  }
  if (ec == boost::beast::http::error::bad_transfer_encoding) {
    return "The request's Transfer-Encoding is repeated or comes with Content-Length.";
  }
  if (ec == boost::beast::http::error::header_limit) {
    return "The request's header is larger than the " + std::to_string(options.max_header_bytes) +
           " bytes this proxy takes.";
  }
  if (ec == boost::beast::http::error::body_limit) {
    return "The request body is larger than the " + std::to_string(options.max_request_body_bytes) +
           " bytes this proxy takes.";
  }
  return "The request is not well-formed HTTP/1.1 (" + ec.message() + ").";
}

}  // namespace spindle::tbproxy
