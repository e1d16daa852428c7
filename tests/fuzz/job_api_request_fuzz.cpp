// Any bytes as requests to an application master's job API, over a real
// socket to a real server whose backend is the job life cycle: an answer or
// a closed connection, never a crash; every answer is an HTTP response;
// a request without the secret changes nothing.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "spindle/core/job_api_server.h"
#include "spindle/core/job_lifecycle.h"
#include "spindle/core/job_status.h"
#include "spindle/core/spec_parser.h"

namespace {

using namespace spindle;

class LifecycleBackend final : public JobApiBackend {
 public:
  LifecycleBackend(JobLifecycle& lifecycle, EventLog& events) : lifecycle_(lifecycle), events_(events) {}
  Result<void> register_task(const TaskId& task, const HostPort& address, const std::string& container,
                             const Reattachment& reattachment) override {
    std::lock_guard lock(mutex_);
    return lifecycle_.register_task(task, address, container, reattachment);
  }
  Result<void> heartbeat(const TaskId& task, const TaskHeartbeat& heartbeat) override {
    std::lock_guard lock(mutex_);
    return lifecycle_.heartbeat(task, heartbeat);
  }
  Result<void> result(const TaskId& task, const TaskResult& result) override {
    std::lock_guard lock(mutex_);
    return lifecycle_.result(task, result);
  }
  JobStatus status(const TaskSelection& selection) override {
    std::lock_guard lock(mutex_);
    return job_status(lifecycle_, "application_1_0001", 0, 0, selection);
  }
  EventLog& events() override { return events_; }

 private:
  JobLifecycle& lifecycle_;
  EventLog& events_;
  std::mutex mutex_;
};

struct Master {
  JobSpec spec;
  EventLog events;
  std::unique_ptr<Rendezvous> rendezvous;
  std::unique_ptr<JobLifecycle> lifecycle;
  std::unique_ptr<LifecycleBackend> backend;
  std::unique_ptr<JobApiServer> server;

  Master() {
    SpecParseOptions options;
    options.check_files = false;
    spec = *parse_job_spec("tasks: {chief: {command: x}, worker: {instances: 2, command: x}}\n", options);
    rendezvous = std::make_unique<Rendezvous>(spec);
    lifecycle = std::make_unique<JobLifecycle>(spec, *rendezvous, events);
    // Kept containers, so that reattaching registrations reach the adoption.
    lifecycle->expect_reattachment({{"c1", "worker", "n:1", "n:2", ""}, {"c2", "chief", "n:1", "n:2", ""}},
                                   JobLifecycle::Clock::now() + std::chrono::hours(24));
    (void)lifecycle->assign_container("worker", "c0", "n:1", "n:2", "");
    backend = std::make_unique<LifecycleBackend>(*lifecycle, events);
    JobApiOptions api;
    api.bind_address = "127.0.0.1";
    api.secret = "s";
    api.longest_wait = std::chrono::milliseconds(20);
    server = std::move(*JobApiServer::start(*rendezvous, api, backend.get()));
  }
};

std::string exchange(std::uint16_t port, std::string_view request) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    // Closed with a reset, so that a long run does not use up the ports in TIME_WAIT.
    const linger reset{1, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0) break;
    ::close(fd);
    fd = -1;
    ::usleep(10'000);
  }
  if (fd < 0) std::abort();  // the server stopped accepting
  for (std::size_t sent = 0; sent < request.size();) {
    const auto wrote = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (wrote <= 0) break;  // the server may close on a bad request before reading it all
    sent += static_cast<std::size_t>(wrote);
  }
  ::shutdown(fd, SHUT_WR);
  std::string answer;
  char buffer[4096];
  pollfd watched{fd, POLLIN, 0};
  while (::poll(&watched, 1, 2000) > 0) {
    const auto got = ::recv(fd, buffer, sizeof(buffer), 0);
    if (got <= 0) break;
    answer.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return answer;
}

// Whether the request carries the secret in a header the server would read:
// field names are case-insensitive and values may be padded with spaces or
// tabs, so the check allows both rather than mistaking a valid request for
// one without the secret.
bool carries_secret(std::string_view request) {
  std::string lowered(request);
  for (auto& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  constexpr std::string_view name = "\nx-spindle-secret:";
  for (auto at = lowered.find(name); at != std::string::npos; at = lowered.find(name, at + 1)) {
    auto value = std::string_view(lowered).substr(at + name.size());
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    if (value.starts_with('s')) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Master master;
  const std::string_view request(reinterpret_cast<const char*>(data), size);
  const auto last_event = master.events.last();
  const auto answer = exchange(master.server->port(), request);
  // Answered in the request's version: HTTP/1.0 or 1.1.
  if (!answer.empty() && !answer.starts_with("HTTP/1.1 ") && !answer.starts_with("HTTP/1.0 ")) std::abort();
  // Without the secret nothing may happen: no event, whatever was asked.
  if (!carries_secret(request) && master.events.last() != last_event) {
    std::abort();
  }
  return 0;
}
