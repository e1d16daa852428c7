#pragma once

// Boost 1.74's status.hpp uses std::ostream without including it.
#include <ostream>

#include <boost/beast/http/status.hpp>

#include <string>
#include <string_view>

namespace spindle::tbproxy {

// A small HTML page that says one thing: what went wrong and what to do.
std::string error_page(boost::beast::http::status status, std::string_view sentence);

// The same sentence for programs: {"error": "<sentence>"}.
std::string error_json(std::string_view sentence);

}  // namespace spindle::tbproxy
