#include "spindle/client/job_records.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace spindle::client {

std::filesystem::path JobRecords::default_directory() {
  if (const char* explicit_dir = std::getenv("SPINDLE_STATE_DIR"); explicit_dir && *explicit_dir) {
    return explicit_dir;
  }
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state) {
    return std::filesystem::path(state) / "spindle";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home ? home : "/tmp") / ".local" / "state" / "spindle";
}

Result<void> JobRecords::save(const JobRecord& record) const {
  const auto jobs = directory_ / "jobs";
  std::error_code ec;
  std::filesystem::create_directories(jobs, ec);
  if (ec) return make_error("cannot create " + jobs.string() + ": " + ec.message());
  ::chmod(directory_.c_str(), 0700);
  ::chmod(jobs.c_str(), 0700);
  const nlohmann::json json = {{"application_id", record.application_id},
                               {"name", record.name},
                               {"secret", record.secret},
                               {"api_certificate_sha256", record.api_certificate_sha256},
                               {"staging", record.staging},
                               {"submitted_ms", record.submitted_ms},
                               {"final_status", record.final_status_json}};
  const auto path = jobs / (record.application_id + ".json");
  const auto temporary = jobs / (record.application_id + ".json.tmp");
  {
    // Created owner-only before the secret is written into it.
    std::ofstream(temporary, std::ios::trunc).close();
    ::chmod(temporary.c_str(), 0600);
    std::ofstream out(temporary, std::ios::trunc);
    out << json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    if (!out) return make_error("cannot write " + temporary.string());
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) return make_error("cannot write " + path.string() + ": " + ec.message());
  return {};
}

Result<JobRecord> JobRecords::load(const std::string& application_id) const {
  const auto path = directory_ / "jobs" / (application_id + ".json");
  std::ifstream in(path);
  if (!in) {
    return make_error("this machine has no record of " + application_id + " (looked for " + path.string() +
                      "); only the user who submitted a job holds its secret");
  }
  std::stringstream text;
  text << in.rdbuf();
  const auto json = nlohmann::json::parse(text.str(), nullptr, false);
  if (json.is_discarded() || !json.is_object()) return make_error(path.string() + " is not a JSON object");
  try {
    JobRecord record;
    record.application_id = json.value("application_id", application_id);
    record.name = json.value("name", std::string());
    record.secret = json.value("secret", std::string());
    record.api_certificate_sha256 = json.value("api_certificate_sha256", std::string());
    record.staging = json.value("staging", std::string());
    record.submitted_ms = json.value("submitted_ms", std::int64_t{0});
    record.final_status_json = json.value("final_status", std::string());
    return record;
  } catch (const nlohmann::json::exception&) {
    return make_error(path.string() + " has a field of the wrong type; remove it if the job is over");
  }
}

std::vector<JobRecord> JobRecords::all() const {
  std::vector<JobRecord> records;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory_ / "jobs", ec)) {
    if (entry.path().extension() != ".json") continue;
    if (auto record = load(entry.path().stem().string())) records.push_back(std::move(*record));
  }
  return records;
}

}  // namespace spindle::client
