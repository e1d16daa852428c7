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

std::string escape_json(std::string_view text) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      escaped += '\\';
      escaped += c;
    } else if (byte < 0x20) {
      escaped += "\\u00";
      escaped += digits[byte >> 4];
      escaped += digits[byte & 0xf];
    } else {
      escaped += c;
    }
  }
  return escaped;
}

}  // namespace

std::string error_json(std::string_view sentence) {
  return "{\"error\": \"" + escape_json(sentence) + "\"}\n";
}

std::string error_page(boost::beast::http::status status, std::string_view sentence) {
  const auto code = std::to_string(static_cast<unsigned>(status));
  const auto reason = boost::beast::http::obsolete_reason(status);
  const auto title = escape_html(code + " " + std::string(reason.data(), reason.size()));
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title +
         "</title></head>\n<body style=\"font-family:sans-serif;margin:3em\"><h1>" + title + "</h1>\n<p>" +
         escape_html(sentence) + "</p></body></html>\n";
}

}  // namespace spindle::tbproxy
