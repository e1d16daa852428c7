// N simulated task executors against the job API over loopback: each opens
// its own connection, registers, then long-polls for the cluster spec. The
// figure is the time from the first connection to the last spec received.
// The job API runs in a child process, as in an application master; at most
// CONNECTING executors connect at once, as a listen backlog allows.
// usage: rendezvous_load [EXECUTORS] [SERVER_THREADS] [CONNECTING]

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <utility>  // Boost 1.74's asio uses std::exchange without including it

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <thread>

#include "spindle/core/job_api_server.h"
#include "spindle/core/spec_parser.h"

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

struct Executor : std::enable_shared_from_this<Executor> {
  Executor(net::io_context& io, int task_index, std::uint16_t server_port, std::atomic<int>& done_count,
           std::atomic<int>& failed_count)
      : stream(io), index(task_index), port(server_port), done(done_count), failed(failed_count) {}

  std::function<void()> on_registered;

  void start() {
    stream.async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port),
                         [self = shared_from_this()](beast::error_code ec) {
                           if (ec) return self->fail("connect", ec);
                           self->send_register();
                         });
  }
  void send_register() {
    request = {http::verb::put, "/v1/tasks/worker/" + std::to_string(index), 11};
    request.set(http::field::host, "127.0.0.1");
    request.set("X-Spindle-Secret", "bench-secret");
    request.body() = "{\"host\":\"10.1." + std::to_string(index / 250) + "." + std::to_string(index % 250) +
                     "\",\"port\":" + std::to_string(2000 + index % 1000) + ",\"container\":\"c" +
                     std::to_string(index) + "\"}";
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
    request = {http::verb::get, "/v1/cluster?after=0&wait_ms=60000", 11};
    request.set(http::field::host, "127.0.0.1");
    request.set("X-Spindle-Secret", "bench-secret");
    response = {};
    http::async_write(stream, request, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->fail();
      http::async_read(self->stream, self->buffer, self->response, [self](beast::error_code read_ec, std::size_t) {
        if (read_ec || self->response.result_int() != 200) return self->fail();
        ++self->done;
      });
    });
  }
  void fail(const char* step = "", const beast::error_code& ec = {}, int status = 0) {
    if (failed.load() < 3)
      std::fprintf(stderr, "executor %d failed at %s: %s %d\n", index, step, ec.message().c_str(), status);
    ++failed;
    if (on_registered) on_registered();
  }

  beast::tcp_stream stream;
  beast::flat_buffer buffer;
  http::request<http::string_body> request;
  http::response<http::string_body> response;
  int index;
  std::uint16_t port;
  std::atomic<int>& done;
  std::atomic<int>& failed;
};

}  // namespace

int main(int argc, char** argv) {
  const int executors = argc > 1 ? std::atoi(argv[1]) : 10'000;
  const int server_threads = argc > 2 ? std::atoi(argv[2]) : 1;
  const int connecting = argc > 3 ? std::atoi(argv[3]) : 512;
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = std::min<rlim_t>(limit.rlim_max, static_cast<rlim_t>(executors) + 1024);
  setrlimit(RLIMIT_NOFILE, &limit);

  int port_pipe[2];  // child -> parent: the port
  int stop_pipe[2];  // parent -> child: closed when the run is over
  if (::pipe(port_pipe) != 0 || ::pipe(stop_pipe) != 0) return 1;
  const pid_t server_pid = ::fork();
  if (server_pid == 0) {
    ::close(port_pipe[0]);
    ::close(stop_pipe[1]);
    spindle::SpecParseOptions options;
    options.check_files = false;
    auto spec = spindle::parse_job_spec("command: x\ntasks: {worker: {instances: " + std::to_string(executors) + "}}\n",
                                        options);
    spindle::Rendezvous rendezvous(*spec);
    spindle::JobApiOptions api;
    api.bind_address = "127.0.0.1";
    api.secret = "bench-secret";
    api.threads = server_threads;
    auto server = spindle::JobApiServer::start(rendezvous, api);
    const std::uint16_t port = server ? (*server)->port() : 0;
    if (::write(port_pipe[1], &port, sizeof(port)) != sizeof(port)) return 1;
    ::close(port_pipe[1]);
    if (!server) return 1;
    // Serve until the parent closes its end of the pipe.
    char byte;
    while (::read(stop_pipe[0], &byte, 1) > 0) {
    }
    (*server)->stop();
    return 0;
  }
  ::close(port_pipe[1]);
  ::close(stop_pipe[0]);
  std::uint16_t port = 0;
  if (::read(port_pipe[0], &port, sizeof(port)) != sizeof(port) || port == 0) {
    std::fprintf(stderr, "the job API did not start\n");
    return 1;
  }
  ::close(port_pipe[0]);

  net::io_context io;
  std::atomic<int> done = 0;
  std::atomic<int> failed = 0;
  int started = 0;
  std::function<void()> start_next;
  start_next = [&] {
    if (started >= executors) return;
    auto executor = std::make_shared<Executor>(io, started++, port, done, failed);
    executor->on_registered = [&] { start_next(); };
    executor->start();
  };
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < std::min(connecting, executors); ++i) start_next();
  io.run();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::close(stop_pipe[1]);
  int status = 0;
  ::waitpid(server_pid, &status, 0);
  const bool server_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::printf("%d executors registered and received the cluster spec in %.3f s; %d failed; the job API %s\n",
              done.load(), seconds, failed.load(), server_ok ? "ended cleanly" : "crashed");
  return failed.load() == 0 && done.load() == executors && server_ok ? 0 : 1;
}
