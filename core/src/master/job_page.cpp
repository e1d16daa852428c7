#include "spindle/core/job_page.h"
#include "spindle/core/job_state.h"

#include "net/query_string.h"

#include <array>
#include <charconv>
#include <ctime>
#include <limits>
#include <vector>

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
.stalled{color:#b35900;font-weight:400}
.succeeded{color:#1b7a35}.failed{color:#b3261e}.running,.registered{color:#0b57d0}
.stopped,.requested,.launching{color:#5f6368}
pre{white-space:pre-wrap;background:#f8f9fa;padding:.6em;border:1px solid #d0d4d9}
@media (prefers-color-scheme:dark){body{background:#1d2125;color:#e8eaed}th{background:#2d3136}
th,td{border-color:#3c4043}pre{background:#2d3136;border-color:#3c4043}a{color:#8ab4f8}}
)css";

// The order a task goes through; a count of each, in this order, reads as progress.
constexpr std::array<std::string_view, 7> phase_order = {"requested", "launching", "registered", "running",
                                                         "succeeded", "failed",    "stopped"};

std::string page_link(const std::string& type, std::size_t page, const std::string& label) {
  std::string query = "?page=" + std::to_string(page);
  if (!type.empty()) query += "&amp;type=" + escaped(type);
  return "<a href=\"" + query + "\">" + label + "</a>";
}

std::string summary_table(const JobStatus& status) {
  std::vector<std::string_view> columns;
  for (const auto phase : phase_order) {
    for (const auto& summary : status.types) {
      if (summary.phases.contains(std::string(phase))) {
        columns.push_back(phase);
        break;
      }
    }
  }
  std::string table = "<table><thead><tr><th>Type</th><th>Tasks</th>";
  for (const auto phase : columns)
    table += "<th class=\"phase " + std::string(phase) + "\">" + std::string(phase) + "</th>";
  table += "<th>Restarts</th></tr></thead><tbody>\n";
  for (const auto& summary : status.types) {
    table += "<tr><td>" + page_link(summary.type, 1, escaped(summary.type)) + "</td><td>" +
             std::to_string(summary.tasks) + "</td>";
    for (const auto phase : columns) {
      const auto found = summary.phases.find(std::string(phase));
      table += "<td>" + (found == summary.phases.end() ? std::string() : std::to_string(found->second)) + "</td>";
    }
    table += "<td>" + std::to_string(summary.restarts) + "</td></tr>\n";
  }
  return table + "</tbody></table>\n";
}

// "Tasks 101-200 of 10000 of type worker: previous, next, every type".
std::string task_navigation(const JobStatus& status, const std::string& type) {
  const bool paged = status.tasks.size() < status.tasks_selected;
  if (!paged && type.empty()) return "";
  std::string line = "<p>";
  if (status.tasks.empty()) {
    line += "No tasks here";
  } else {
    line += "Tasks " + std::to_string(status.tasks_offset + 1) + "&ndash;" +
            std::to_string(status.tasks_offset + status.tasks.size()) + " of " + std::to_string(status.tasks_selected);
  }
  if (!type.empty()) line += " of type " + escaped(type);
  const std::size_t page = status.tasks_offset / job_page_tasks + 1;
  if (page > 1) line += " &middot; " + page_link(type, page - 1, "&lsaquo; previous");
  if (status.tasks_offset + status.tasks.size() < status.tasks_selected) {
    line += " &middot; " + page_link(type, page + 1, "next &rsaquo;");
  }
  if (!type.empty()) line += " &middot; <a href=\"./\">every type</a>";
  return line + "</p>\n";
}

}  // namespace

TaskSelection job_page_selection(std::string_view query) {
  // The type as the API reads it; a page number instead of an offset.
  auto parsed = parse_task_selection(query);
  TaskSelection selection = parsed ? *parsed : TaskSelection{};
  selection.limit = job_page_tasks;
  const std::string_view page_text = query_value(query, "page").value_or("");
  std::size_t page = 1;
  auto [end, ec] = std::from_chars(page_text.data(), page_text.data() + page_text.size(), page);
  if (ec != std::errc() || end != page_text.data() + page_text.size() || page == 0 ||
      page > std::numeric_limits<std::size_t>::max() / job_page_tasks) {
    page = 1;
  }
  selection.offset = (page - 1) * job_page_tasks;
  return selection;
}

std::string render_job_page(const JobStatus& status, const std::string& type) {
  const bool running = parse_job_state(status.state) == JobState::running;
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  if (running) page += "<meta http-equiv=\"refresh\" content=\"5\">";
  page += "<title>" + escaped(status.name.empty() ? status.application_id : status.name) + " - Spindle</title>";
  page += std::string("<style>") + style + "</style></head><body>\n";
  page += "<h1>" + escaped(status.name) + "</h1>\n<p>" + escaped(status.application_id) +
          " &middot; <span class=\"phase " + escaped(status.state) + "\">" + escaped(status.state) + "</span>";
  if (status.started_ms > 0) page += " &middot; started " + utc_time(status.started_ms) + " UTC";
  page += " &middot; cluster version " + std::to_string(status.cluster_version) + "</p>\n";
  if (!status.tensorboard_address.empty()) {
    // Behind TLS its certificate is the task's own: `spindle tensorboard` checks it, a browser asks.
    const bool behind_tls = !status.tensorboard_certificate_sha256.empty();
    page += "<p>TensorBoard: " +
            link(std::string(behind_tls ? "https://" : "http://") + status.tensorboard_address + "/",
                 status.tensorboard_address) +
            (behind_tls ? " (TLS, certificate sha256 " + escaped(status.tensorboard_certificate_sha256) +
                              "; <code>spindle tensorboard " + escaped(status.application_id) + "</code> checks it)"
                        : std::string()) +
            "</p>\n";
  }
  if (!status.diagnostics.empty()) page += "<pre>" + escaped(status.diagnostics) + "</pre>\n";
  if (!status.types.empty()) page += summary_table(status);
  page += task_navigation(status, type);
  page +=
      "<table><thead><tr><th>Task</th><th>State</th><th>Address</th><th>Node</th><th>Exit</th><th>Restarts</th>"
      "<th>Logs</th><th>Started (UTC)</th><th>Ended (UTC)</th></tr></thead><tbody>\n";
  for (const auto& task : status.tasks) {
    std::string exit = task.exit_code ? std::to_string(*task.exit_code) : "";
    if (!task.exit_description.empty()) exit += (exit.empty() ? "" : " ") + ("(" + task.exit_description + ")");
    const std::string stalled =
        task.stalled.empty() ? std::string() : "<br><span class=\"stalled\">" + escaped(task.stalled) + "</span>";
    page += "<tr><td>" + escaped(task.task) + "</td><td class=\"phase " + escaped(task.phase) + "\">" +
            escaped(task.phase) + stalled + "</td><td>" + escaped(task.address) + "</td><td>" + escaped(task.node) +
            "</td><td>" + escaped(exit) + "</td><td>" + std::to_string(task.restarts) + "</td><td>" +
            (task.log_url.empty() ? std::string() : link(task.log_url, "logs")) + "</td><td>" +
            utc_time(task.started_ms) + "</td><td>" + utc_time(task.finished_ms) + "</td></tr>\n";
  }
  page += "</tbody></table>\n";
  page += task_navigation(status, type);
  page += running ? "<p><a href=\"./\">Reload</a> (this page reloads itself every 5 s)</p>\n" : "";
  page += "</body></html>\n";
  return page;
}

}  // namespace spindle
