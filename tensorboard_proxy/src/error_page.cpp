#include "error_page.h"

namespace spindle::tbproxy {
namespace {

std::string escape_html(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&#39;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

}  // namespace

std::string error_page(boost::beast::http::status status, std::string_view sentence) {
  const auto code = std::to_string(static_cast<unsigned>(status));
  const auto reason = boost::beast::http::obsolete_reason(status);
  const auto title = escape_html(code + " " + std::string(reason.data(), reason.size()));
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title +
         "</title></head>\n<body style=\"font-family:sans-serif;margin:3em\"><h1>" + title + "</h1>\n<p>" +
         escape_html(sentence) + "</p></body></html>\n";
}

}  // namespace spindle::tbproxy
