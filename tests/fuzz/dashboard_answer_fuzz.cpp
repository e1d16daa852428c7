// What a `spindle serve` answers, read as the desktop app reads it through
// the client library, and the address a user pastes: every reader takes any
// bytes and returns a value or a sentence, never crashes.

#include <cstddef>
#include <cstdint>
#include <string>

#include "client/remote/dashboard_answers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  const std::string server = "http://127.0.0.1:8080";
  using namespace spindle::client;
  (void)read_session_user(body, server);
  (void)read_jobs(body, server);
  (void)read_cluster(body, server);
  if (auto job = read_job(body, server); job.ok() && job->status) (void)job->status->tasks.size();
  (void)read_spec(body, server);
  (void)read_points(body, server);
  (void)read_log(body, server);
  (void)read_submitted(body, server);
  (void)read_refusal(body);
  (void)parse_dashboard_address(body);
  return 0;
}
