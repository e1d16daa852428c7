// N simulated task executors against the job API over loopback: each opens
// its own connection, registers, then long-polls for the cluster spec (asking
// for zstd or gzip, as the task executor does). The first figure is the time from the
// first connection to the last spec received. Then a restart round: every
// executor long-polls past the version it holds, one task is withdrawn and
// registers again at a new address, and the figure is the time until every
// executor holds the new version. The job API runs in a child process, as in
// an application master, whose peak resident memory and CPU time are
// reported; at most CONNECTING executors connect at once, as a listen backlog
// allows. "gzip" makes the executors ask for gzip only, "plain" for
// uncompressed JSON; "tls" puts
// the API behind TLS with a job certificate, as on an encrypted cluster, each
// executor making its own handshake. "heartbeats" replaces the restart round
// with the steady state of a running job: the API answers for the application
// master's job life cycle, and every executor, holding its spec, reports a
// heartbeat every 5 s (as the task executor does) for 30 s; the figure is the
// API's CPU over that time, as a share of one core. "tokens" replaces it
// with a token refresh of a job submitted with a keytab: every executor,
// holding its spec, long-polls GET /v1/tokens, the master shelves a new set
// (three tokens' worth of bytes), and the figures are the time until every
// executor holds it and the API's CPU for that round, beside the restart
// round's (a new cluster version to every executor), its nearest kin.
// usage: rendezvous_load [EXECUTORS] [SERVER_THREADS] [CONNECTING] [gzip|plain] [tls] [heartbeats|tokens]

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <utility>  // Boost 1.74's asio uses std::exchange without including it

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "spindle/core/gzip.h"
#include "spindle/core/job_api_server.h"
#include "spindle/core/job_certificate.h"
#include "spindle/core/job_lifecycle.h"
#include "spindle/core/maybe_tls_stream.h"
#include "spindle/core/spec_parser.h"
#include "spindle/core/zstd_codec.h"

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
namespace ssl = net::ssl;

namespace {

// Connects, then makes the TLS handshake when the stream has TLS.
template <typename Handler>
void connect(spindle::MaybeTlsStream<beast::tcp_stream>& stream, std::uint16_t port, Handler handler) {
  stream.plain().async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port),
                               [&stream, handler = std::move(handler)](beast::error_code ec) mutable {
                                 if (ec || !stream.tls()) return handler(ec);
                                 stream.secured().async_handshake(ssl::stream_base::client, std::move(handler));
                               });
}

struct Totals {
  std::atomic<int> holding_first{0};   // executors holding version 1
  std::atomic<int> holding_second{0};  // and then version 2
  std::atomic<int> failed{0};
  std::atomic<std::uint64_t> body_bytes{0};
  std::atomic<std::uint64_t> header_bytes{0};
  std::atomic<int> not_modified{0};
  std::atomic<int> heartbeats{0};
  std::atomic<int> holding_tokens{0};
  std::string accept = "zstd, gzip";  // Accept-Encoding, as the task executor asks; empty for plain JSON
  bool heartbeat_phase = false;
  bool token_phase = false;
};

constexpr auto heartbeat_interval = std::chrono::seconds(5);
constexpr int heartbeat_rounds = 6;

// A job spec allows 10,000 tasks of one type: beyond that, executors are ps tasks.
constexpr int per_type = 10'000;
std::string task_path(int index) {
  return index < per_type ? "/v1/tasks/worker/" + std::to_string(index)
                          : "/v1/tasks/ps/" + std::to_string(index - per_type);
}

std::string registration(int index, const std::string& network, const std::string& container) {
  return "{\"host\":\"" + network + std::to_string(index / 250) + "." + std::to_string(index % 250) +
         "\",\"port\":" + std::to_string(2000 + index % 1000) + ",\"container\":\"" + container + "\"}";
}

struct Executor : std::enable_shared_from_this<Executor> {
  Executor(net::io_context& io, ssl::context* tls, int task_index, std::uint16_t server_port, Totals& run_totals)
      : stream(beast::tcp_stream(io), tls), timer(io), index(task_index), port(server_port), totals(run_totals) {
    // Room for a whole answer: a buffer that starts small reads it 512 bytes at a time.
    buffer.reserve(16 * 1024);
  }

  std::function<void()> on_registered;

  void start() {
    connect(stream, port, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->fail("connect", ec);
      self->send_register();
    });
  }
  void send_register() {
    request = {http::verb::put, task_path(index), 11};
    request.set(http::field::host, "127.0.0.1");
    request.set("X-Spindle-Secret", "bench-secret");
    request.body() = registration(index, "10.1.", "c" + std::to_string(index));
    request.prepare_payload();
    http::async_write(stream, request, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->fail("send", ec);
      http::async_read(self->stream, self->buffer, self->response, [self](beast::error_code read_ec, std::size_t) {
        if (read_ec || self->response.result_int() != 200) {
          return self->fail("register", read_ec, self->response.result_int());
        }
        if (self->on_registered) self->on_registered();
        self->send_poll();
      });
    });
  }
  void send_poll() {
    request = {http::verb::get, "/v1/cluster?after=" + std::to_string(held) + "&wait_ms=60000", 11};
    request.set(http::field::host, "127.0.0.1");
    request.set("X-Spindle-Secret", "bench-secret");
    if (!totals.accept.empty()) request.set(http::field::accept_encoding, totals.accept);
    if (held > 0) request.set(http::field::if_none_match, "\"" + std::to_string(held) + "\"");
    request.body().clear();
    request.prepare_payload();
    response = {};
    http::async_write(stream, request, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->fail("poll", ec);
      http::async_read(self->stream, self->buffer, self->response, [self](beast::error_code read_ec, std::size_t) {
        if (read_ec) return self->fail("poll", read_ec);
        if (self->response.result_int() == 304) {
          ++self->totals.not_modified;
          return self->send_poll();
        }
        if (self->response.result_int() != 200) return self->fail("poll", read_ec, self->response.result_int());
        self->totals.body_bytes += self->response.body().size();
        for (const auto& field : self->response) {
          self->totals.header_bytes += field.name_string().size() + field.value().size() + 4;
        }
        ++self->held;
        if (self->index == 0 && !self->check()) return self->fail("decode");
        if (self->held == 1) {
          ++self->totals.holding_first;
          // Wait for the next version, as a running task does; or, in the heartbeat phase, report;
          // or wait for new tokens.
          if (self->totals.token_phase) {
            self->send_tokens_poll();
          } else if (!self->totals.heartbeat_phase) {
            self->send_poll();
          }
        } else {
          ++self->totals.holding_second;
        }
      });
    });
  }
  void send_tokens_poll() {
    request = {http::verb::get, "/v1/tokens?after=0&wait_ms=60000", 11};
    request.set(http::field::host, "127.0.0.1");
    request.set("X-Spindle-Secret", "bench-secret");
    request.body().clear();
    request.prepare_payload();
    response = {};
    http::async_write(stream, request, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->fail("tokens", ec);
      http::async_read(self->stream, self->buffer, self->response, [self](beast::error_code read_ec, std::size_t) {
        if (read_ec) return self->fail("tokens", read_ec);
        if (self->response.result_int() == 204) return self->send_tokens_poll();
        if (self->response.result_int() != 200) return self->fail("tokens", read_ec, self->response.result_int());
        const auto parsed = nlohmann::json::parse(self->response.body(), nullptr, false);
        if (!parsed.is_object() || !parsed.contains("credentials")) return self->fail("tokens body");
        self->totals.body_bytes += self->response.body().size();
        ++self->totals.holding_tokens;
      });
    });
  }
  // Heartbeats at a steady pace from `first`, the executors spread evenly over the interval.
  void start_heartbeats(std::chrono::steady_clock::time_point first) {
    next_heartbeat = first;
    wait_for_heartbeat();
  }
  void wait_for_heartbeat() {
    timer.expires_at(next_heartbeat);
    timer.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->fail("heartbeat timer", ec);
      self->send_heartbeat();
    });
  }
  void send_heartbeat() {
    request = {http::verb::post, task_path(index) + "/heartbeat", 11};
    request.set(http::field::host, "127.0.0.1");
    request.set("X-Spindle-Secret", "bench-secret");
    request.body() = "{\"container\":\"c" + std::to_string(index) +
                     "\",\"rss_bytes\":" + std::to_string(300'000'000 + index) +
                     ",\"cpu_seconds\":" + std::to_string(12.5 + sent) + ",\"processes\":3,\"cluster_version\":1}";
    request.prepare_payload();
    response = {};
    http::async_write(stream, request, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->fail("heartbeat", ec);
      http::async_read(self->stream, self->buffer, self->response, [self](beast::error_code read_ec, std::size_t) {
        if (read_ec || self->response.result_int() != 200) {
          return self->fail("heartbeat", read_ec, self->response.result_int());
        }
        ++self->totals.heartbeats;
        if (++self->sent == heartbeat_rounds) return;
        self->next_heartbeat += heartbeat_interval;
        self->wait_for_heartbeat();
      });
    });
  }
  // One executor reads its answer to the end: it must be the whole cluster.
  bool check() {
    std::string plain = response.body();
    const auto coding = response[http::field::content_encoding];
    if (beast::iequals(coding, "gzip") || beast::iequals(coding, "zstd")) {
      auto expanded =
          beast::iequals(coding, "gzip") ? spindle::gzip_decompress(plain) : spindle::zstd_decompress(plain);
      if (!expanded) return false;
      plain = std::move(*expanded);
    }
    const auto parsed = nlohmann::json::parse(plain, nullptr, false);
    if (!parsed.is_object() || parsed.value("version", 0) != held || !parsed.contains("cluster")) return false;
    std::size_t addresses = 0;
    for (const auto& [type, list] : parsed["cluster"].items()) addresses += list.size();
    return addresses == expected;
  }
  void fail(const char* step = "", const beast::error_code& ec = {}, int status = 0) {
    if (totals.failed.load() < 3)
      std::fprintf(stderr, "executor %d failed at %s: %s %d\n", index, step, ec.message().c_str(), status);
    ++totals.failed;
    if (on_registered) on_registered();
  }

  spindle::MaybeTlsStream<beast::tcp_stream> stream;
  net::steady_timer timer;
  beast::flat_buffer buffer;
  http::request<http::string_body> request;
  http::response<http::string_body> response;
  int index;
  std::uint16_t port;
  Totals& totals;
  int held = 0;
  std::size_t expected = 0;
  int sent = 0;
  std::chrono::steady_clock::time_point next_heartbeat;
};

// What the application master puts behind the API: its job life cycle, every
// task given container "c<executor>" as if YARN had allocated them.
class LifecycleBackend final : public spindle::JobApiBackend {
 public:
  LifecycleBackend(const spindle::JobSpec& spec, spindle::Rendezvous& rendezvous)
      : lifecycle_(spec, rendezvous, events_) {
    int container = 0;
    for (const auto& task : spec.tasks) {
      for (int i = 0; i < task.instances; ++i) {
        lifecycle_.assign_container(task.type, "c" + std::to_string(container++), "node:1", "node:2", "");
      }
    }
  }
  spindle::Result<void> register_task(const spindle::TaskId& task, const spindle::HostPort& address,
                                      const std::string& container,
                                      const spindle::Reattachment& reattachment) override {
    std::lock_guard lock(mutex_);
    return lifecycle_.register_task(task, address, container, reattachment);
  }
  spindle::Result<void> heartbeat(const spindle::TaskId& task, const spindle::TaskHeartbeat& heartbeat) override {
    std::lock_guard lock(mutex_);
    return lifecycle_.heartbeat(task, heartbeat);
  }
  spindle::Result<void> result(const spindle::TaskId& task, const spindle::TaskResult& result) override {
    std::lock_guard lock(mutex_);
    return lifecycle_.result(task, result);
  }
  spindle::JobStatus status(const spindle::TaskSelection& selection) override {
    std::lock_guard lock(mutex_);
    return spindle::job_status(lifecycle_, "application_1_0001", 1, 0, selection);
  }
  spindle::EventLog& events() override { return events_; }
  spindle::TokenShelf* tokens() override { return &shelf_; }

 private:
  spindle::TokenShelf shelf_;
  spindle::EventLog events_;
  spindle::JobLifecycle lifecycle_;
  std::mutex mutex_;
};

double cpu_seconds(const rusage& use) {
  return static_cast<double>(use.ru_utime.tv_sec + use.ru_stime.tv_sec) +
         static_cast<double>(use.ru_utime.tv_usec + use.ru_stime.tv_usec) / 1e6;
}

// Registers one task again from its new container, on a connection of its own.
struct Reregistration : std::enable_shared_from_this<Reregistration> {
  Reregistration(net::io_context& io, ssl::context* tls, std::uint16_t server_port)
      : stream(beast::tcp_stream(io), tls), port(server_port) {}
  void start(std::atomic<int>& failed) {
    connect(stream, port, [self = shared_from_this(), &failed](beast::error_code ec) {
      if (ec) return void(++failed);
      self->request = {http::verb::put, "/v1/tasks/worker/0", 11};
      self->request.set(http::field::host, "127.0.0.1");
      self->request.set("X-Spindle-Secret", "bench-secret");
      self->request.body() = registration(0, "10.2.", "c0-restarted");
      self->request.prepare_payload();
      http::async_write(self->stream, self->request, [self, &failed](beast::error_code write_ec, std::size_t) {
        if (write_ec) return void(++failed);
        http::async_read(self->stream, self->buffer, self->response,
                         [self, &failed](beast::error_code read_ec, std::size_t) {
                           if (read_ec || self->response.result_int() != 200) ++failed;
                         });
      });
    });
  }
  spindle::MaybeTlsStream<beast::tcp_stream> stream;
  beast::flat_buffer buffer;
  http::request<http::string_body> request;
  http::response<http::string_body> response;
  std::uint16_t port;
};

// Waits until `count` reaches `target`, or `failed` says it never will.
bool wait_for(const std::atomic<int>& count, int target, const std::atomic<int>& failed) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
  while (count.load() < target) {
    if (failed.load() > 0 || std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const int executors = argc > 1 ? std::atoi(argv[1]) : 10'000;
  const int server_threads = argc > 2 ? std::atoi(argv[2]) : 1;
  const int connecting = argc > 3 ? std::atoi(argv[3]) : 512;
  Totals totals;
  bool tls = false;
  for (int i = 4; i < argc; ++i) {
    if (std::strcmp(argv[i], "plain") == 0) totals.accept.clear();
    if (std::strcmp(argv[i], "gzip") == 0) totals.accept = "gzip";
    if (std::strcmp(argv[i], "tls") == 0) tls = true;
    if (std::strcmp(argv[i], "heartbeats") == 0) totals.heartbeat_phase = true;
    if (std::strcmp(argv[i], "tokens") == 0) totals.token_phase = true;
  }
  std::optional<spindle::SelfSignedCertificate> certificate;
  if (tls) {
    auto made = spindle::make_job_certificate("application_1_0001");
    if (!made) return 1;
    certificate = *made;
  }
  // The executors' side: the job's certificate is pinned, not verified by a CA.
  ssl::context client_tls(ssl::context::tls_client);
  client_tls.set_verify_mode(ssl::verify_none);
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  // Each executor is a descriptor here and another in the job API; raising
  // the hard limit needs privilege, so without it the soft one goes as far as it may.
  const auto wanted = static_cast<rlim_t>(executors) + 1024;
  rlimit raised{std::max(limit.rlim_cur, wanted), std::max(limit.rlim_max, wanted)};
  if (setrlimit(RLIMIT_NOFILE, &raised) != 0) {
    limit.rlim_cur = std::min(limit.rlim_max, wanted);
    setrlimit(RLIMIT_NOFILE, &limit);
  }

  int port_pipe[2];     // child -> parent: the port, then "withdrawn" or the CPU seconds of a phase
  int command_pipe[2];  // parent -> child: "restart one task", "phase starts", "phase ends"; closed at the end
  if (::pipe(port_pipe) != 0 || ::pipe(command_pipe) != 0) return 1;
  const pid_t server_pid = ::fork();
  if (server_pid == 0) {
    ::close(port_pipe[0]);
    ::close(command_pipe[1]);
    spindle::SpecParseOptions options;
    options.check_files = false;
    std::string tasks = "worker: {instances: " + std::to_string(std::min(executors, per_type)) + "}";
    if (executors > per_type) tasks += ", ps: {instances: " + std::to_string(executors - per_type) + "}";
    auto spec = spindle::parse_job_spec("command: x\ntasks: {" + tasks + "}\n", options);
    if (!spec) return 1;
    spindle::Rendezvous rendezvous(*spec);
    spindle::JobApiOptions api;
    api.bind_address = "127.0.0.1";
    api.secret = "bench-secret";
    api.threads = server_threads;
    if (certificate) {
      api.tls_certificate_pem = certificate->certificate_pem;
      api.tls_key_pem = certificate->key_pem;
    }
    std::unique_ptr<LifecycleBackend> backend;
    if (totals.heartbeat_phase || totals.token_phase) backend = std::make_unique<LifecycleBackend>(*spec, rendezvous);
    auto server = spindle::JobApiServer::start(rendezvous, api, backend.get());
    const std::uint16_t port = server ? (*server)->port() : 0;
    if (::write(port_pipe[1], &port, sizeof(port)) != sizeof(port)) return 1;
    if (!server) return 1;
    char command;
    rusage phase_start{};
    while (::read(command_pipe[0], &command, 1) > 0) {
      if (command == 'h') {
        getrusage(RUSAGE_SELF, &phase_start);
        continue;
      }
      if (command == 't') {
        // Every executor waits for tokens before the new set is shelved.
        while (backend->tokens()->waiting() < static_cast<std::size_t>(executors)) {
          std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        getrusage(RUSAGE_SELF, &phase_start);
        const char shelved = 's';
        if (::write(port_pipe[1], &shelved, 1) != 1) return 1;
        backend->tokens()->put(std::string(900, 't'));
        continue;
      }
      if (command == 'e') {
        rusage phase_end{};
        getrusage(RUSAGE_SELF, &phase_end);
        const double used = cpu_seconds(phase_end) - cpu_seconds(phase_start);
        if (::write(port_pipe[1], &used, sizeof(used)) != sizeof(used)) return 1;
        continue;
      }
      // Every executor's poll past version 1 has reached the registry before
      // the task goes, so the round measures the answers, not the polls.
      while (rendezvous.waiting_count() < static_cast<std::size_t>(executors)) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      rendezvous.task_restarting({"worker", 0});
      const char withdrawn = 'w';
      if (::write(port_pipe[1], &withdrawn, 1) != 1) return 1;
    }
    (*server)->stop();
    return 0;
  }
  ::close(port_pipe[1]);
  ::close(command_pipe[0]);
  std::uint16_t port = 0;
  if (::read(port_pipe[0], &port, sizeof(port)) != sizeof(port) || port == 0) {
    std::fprintf(stderr, "the job API did not start\n");
    return 1;
  }

  net::io_context io;
  auto work = net::make_work_guard(io);
  int started = 0;
  std::vector<std::shared_ptr<Executor>> everyone;
  std::function<void()> start_next;
  start_next = [&] {
    if (started >= executors) return;
    auto executor = std::make_shared<Executor>(io, tls ? &client_tls : nullptr, started++, port, totals);
    everyone.push_back(executor);
    executor->expected = static_cast<std::size_t>(executors);
    executor->on_registered = [&] { start_next(); };
    executor->start();
  };
  const auto start = std::chrono::steady_clock::now();
  net::post(io, [&] {
    for (int i = 0; i < std::min(connecting, executors); ++i) start_next();
  });
  std::thread client([&] { io.run(); });

  const bool first_ok = wait_for(totals.holding_first, executors, totals.failed);
  const double first_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto first_body = totals.body_bytes.load();
  const auto first_headers = totals.header_bytes.load();

  double second_seconds = 0;
  bool second_ok = false;
  double phase_seconds = 0;
  double phase_cpu = 0;
  if (first_ok && totals.heartbeat_phase) {
    const char begin = 'h';
    const char end = 'e';
    const auto phase_start = std::chrono::steady_clock::now();
    if (::write(command_pipe[1], &begin, 1) == 1) {
      net::post(io, [&] {
        for (const auto& executor : everyone) {
          executor->start_heartbeats(phase_start +
                                     std::chrono::milliseconds(heartbeat_interval) * executor->index / executors);
        }
      });
      second_ok = wait_for(totals.heartbeats, executors * heartbeat_rounds, totals.failed);
      phase_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - phase_start).count();
      second_ok = second_ok && ::write(command_pipe[1], &end, 1) == 1 &&
                  ::read(port_pipe[0], &phase_cpu, sizeof(phase_cpu)) == sizeof(phase_cpu);
    }
  } else if (first_ok && totals.token_phase) {
    const char shelve = 't';
    const char end = 'e';
    char shelved = 0;
    if (::write(command_pipe[1], &shelve, 1) == 1 && ::read(port_pipe[0], &shelved, 1) == 1) {
      // The clock starts when every executor waits and the master shelves the set.
      const auto round_start = std::chrono::steady_clock::now();
      second_ok = wait_for(totals.holding_tokens, executors, totals.failed);
      second_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - round_start).count();
      second_ok = second_ok && ::write(command_pipe[1], &end, 1) == 1 &&
                  ::read(port_pipe[0], &phase_cpu, sizeof(phase_cpu)) == sizeof(phase_cpu);
    }
  } else if (first_ok) {
    const char restart = 'r';
    char withdrawn = 0;
    if (::write(command_pipe[1], &restart, 1) == 1 && ::read(port_pipe[0], &withdrawn, 1) == 1) {
      const auto restart_start = std::chrono::steady_clock::now();
      auto again = std::make_shared<Reregistration>(io, tls ? &client_tls : nullptr, port);
      net::post(io, [again, &totals] { again->start(totals.failed); });
      second_ok = wait_for(totals.holding_second, executors, totals.failed);
      second_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - restart_start).count();
    }
  }
  ::close(command_pipe[1]);
  int status = 0;
  ::waitpid(server_pid, &status, 0);
  work.reset();
  io.stop();
  client.join();
  const bool server_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  rusage server_use{};
  getrusage(RUSAGE_CHILDREN, &server_use);
  const double server_cpu = cpu_seconds(server_use);

  std::printf(
      "%d executors (%s%s) registered and received the cluster spec in %.3f s: %.1f MB of spec (%.1f KB each), "
      "%.1f MB of headers\n",
      totals.holding_first.load(), totals.accept.empty() ? "plain JSON" : totals.accept.c_str(), tls ? ", TLS" : "",
      first_seconds, first_body / 1e6, first_body / 1e3 / std::max(1, executors), first_headers / 1e6);
  if (totals.heartbeat_phase) {
    std::printf(
        "heartbeats: %d in %.1f s (every executor every %lld s), %.0f a second; the job API used %.2f CPU seconds, "
        "%.3f of a core (%.1f us each)\n",
        totals.heartbeats.load(), phase_seconds, static_cast<long long>(heartbeat_interval.count()),
        totals.heartbeats.load() / std::max(phase_seconds, 1e-9), phase_cpu, phase_cpu / std::max(phase_seconds, 1e-9),
        phase_cpu * 1e6 / std::max(1, totals.heartbeats.load()));
  } else if (totals.token_phase) {
    std::printf(
        "token round: a new set shelved; %d executors held it %.3f s later; the job API used %.3f CPU seconds for "
        "the round\n",
        totals.holding_tokens.load(), second_seconds, phase_cpu);
  } else {
    std::printf(
        "restart round: one task registered again at a new address; %d executors held the new version in %.3f s: "
        "%.1f MB of spec\n",
        totals.holding_second.load(), second_seconds, (totals.body_bytes.load() - first_body) / 1e6);
  }
  std::printf("the job API: peak resident %.1f MiB, %.2f CPU seconds; %d failed; it %s\n",
              static_cast<double>(server_use.ru_maxrss) / 1024.0, server_cpu, totals.failed.load(),
              server_ok ? "ended cleanly" : "crashed");
  return totals.failed.load() == 0 && first_ok && second_ok && server_ok ? 0 : 1;
}
