#include "spindle/core/job_page.h"

#include <ctime>

namespace spindle {
namespace {

std::string escaped(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string utc_time(std::int64_t ms) {
  if (ms <= 0) return "";
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S", &utc);
  return text;
}

bool is_web_link(const std::string& url) {
  return url.starts_with("http://") || url.starts_with("https://");
}

std::string link(const std::string& url, const std::string& label) {
  if (!is_web_link(url)) return escaped(label);
  return "<a href=\"" + escaped(url) + "\">" + escaped(label) + "</a>";
}

const char* style = R"css(
body{font-family:system-ui,sans-serif;margin:1.5em;color:#1d2125;background:#fff}
h1{font-size:1.3em;margin:0 0 .3em}
table{border-collapse:collapse;margin-top:1em}
th,td{padding:.3em .8em;border-bottom:1px solid #d0d4d9;text-align:left;font-size:.92em}
th{background:#f1f3f5}
.phase{font-weight:600}
.succeeded{color:#1b7a35}.failed{color:#b3261e}.running,.registered{color:#0b57d0}
.stopped,.requested,.launching{color:#5f6368}
pre{white-space:pre-wrap;background:#f8f9fa;padding:.6em;border:1px solid #d0d4d9}
@media (prefers-color-scheme:dark){body{background:#1d2125;color:#e8eaed}th{background:#2d3136}
th,td{border-color:#3c4043}pre{background:#2d3136;border-color:#3c4043}a{color:#8ab4f8}}
)css";

}  // namespace

std::string render_job_page(const JobStatus& status) {
  const bool running = status.state == "running";
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  if (running) page += "<meta http-equiv=\"refresh\" content=\"5\">";
  page += "<title>" + escaped(status.name.empty() ? status.application_id : status.name) + " - Spindle</title>";
  page += std::string("<style>") + style + "</style></head><body>\n";
  page += "<h1>" + escaped(status.name) + "</h1>\n<p>" + escaped(status.application_id) +
          " &middot; <span class=\"phase " + escaped(status.state) + "\">" + escaped(status.state) + "</span>";
  if (status.started_ms > 0) page += " &middot; started " + utc_time(status.started_ms) + " UTC";
  page += " &middot; cluster version " + std::to_string(status.cluster_version) + "</p>\n";
  for (const auto& task : status.tasks) {
    if (task.task.starts_with("tensorboard:") && !task.address.empty() && task.phase == "running") {
      page += "<p>TensorBoard: " + link("http://" + task.address + "/", task.address) + "</p>\n";
    }
  }
  if (!status.diagnostics.empty()) page += "<pre>" + escaped(status.diagnostics) + "</pre>\n";
  page +=
      "<table><thead><tr><th>Task</th><th>State</th><th>Address</th><th>Node</th><th>Exit</th><th>Restarts</th>"
      "<th>Logs</th><th>Started (UTC)</th><th>Ended (UTC)</th></tr></thead><tbody>\n";
  for (const auto& task : status.tasks) {
    std::string exit = task.exit_code ? std::to_string(*task.exit_code) : "";
    if (!task.exit_description.empty()) exit += (exit.empty() ? "" : " ") + ("(" + task.exit_description + ")");
    page += "<tr><td>" + escaped(task.task) + "</td><td class=\"phase " + escaped(task.phase) + "\">" +
            escaped(task.phase) + "</td><td>" + escaped(task.address) + "</td><td>" + escaped(task.node) + "</td><td>" +
            escaped(exit) + "</td><td>" + std::to_string(task.restarts) + "</td><td>" +
            (task.log_url.empty() ? std::string() : link(task.log_url, "logs")) + "</td><td>" +
            utc_time(task.started_ms) + "</td><td>" + utc_time(task.finished_ms) + "</td></tr>\n";
  }
  page += "</tbody></table>\n";
  page += running ? "<p><a href=\"./\">Reload</a> (this page reloads itself every 5 s)</p>\n" : "";
  page += "</body></html>\n";
  return page;
}

}  // namespace spindle
