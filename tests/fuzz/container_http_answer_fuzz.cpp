// Whatever a NameNode or DataNode (or anything listening where one should be) sends back to the
// container binary's HTTP (Beast): the input is the server's whole answer to every request, raw
// bytes from the status line on. It is read by the transport alone (a GET kept in memory, one
// streamed to a sink, a HEAD, a redirect followed), and by WebHDFS above it (a listing, a file's
// status, a read, a write whose DataNode answers the same bytes). Nothing may crash, hang past
// its bounds or read out of bounds; each call either answers or says why not.
#include <sys/socket.h>

#include <atomic>
#include <boost/asio.hpp>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "spindle/yarn/http_client.h"
#include "spindle/yarn/webhdfs.h"

namespace {

namespace net = boost::asio;
using net::ip::tcp;

// One loopback server for the whole run: it reads a request's header and answers the current
// input, then closes, so every answer ends where the input does.
class AnswerServer {
 public:
  AnswerServer() : acceptor_(context_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)) {
    thread_ = std::thread([this] { serve(); });
  }

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

  void answer_with(std::string_view bytes) {
    std::lock_guard lock(mutex_);
    answer_.assign(bytes);
  }

 private:
  void serve() {
    for (;;) {
      boost::system::error_code ec;
      tcp::socket socket(context_);
      acceptor_.accept(socket, ec);
      if (ec) continue;
      std::string request;
      char piece[4096];
      // The request's header, and as much of its body as is there; a client that sends a body
      // larger than this still gets its answer, and then a closed connection.
      while (request.find("\r\n\r\n") == std::string::npos && request.size() < 65536) {
        const auto n = socket.read_some(net::buffer(piece), ec);
        if (ec) break;
        request.append(piece, n);
      }
      std::string answer;
      {
        std::lock_guard lock(mutex_);
        answer = answer_;
      }
      net::write(socket, net::buffer(answer), ec);
      socket.shutdown(tcp::socket::shutdown_send, ec);
      // Whatever of a request's body is still coming, so that the close is not a reset that
      // could drop the answer before the client read it.
      for (int drained = 0; drained < 64 && !ec; ++drained) socket.read_some(net::buffer(piece), ec);
    }
  }

  net::io_context context_;
  tcp::acceptor acceptor_;
  std::thread thread_;
  std::mutex mutex_;
  std::string answer_;
};

AnswerServer& server() {
  static auto* running = new AnswerServer();  // lives as long as the process: its thread never ends
  return *running;
}

spindle::yarn::http::Request bounded(std::string method, std::string url) {
  spindle::yarn::http::Request request;
  request.method = std::move(method);
  request.url = std::move(url);
  request.connect_timeout = std::chrono::milliseconds(2000);
  request.timeout = std::chrono::milliseconds(2000);
  return request;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace http = spindle::yarn::http;
  auto& answers = server();
  answers.answer_with(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::string base = "http://127.0.0.1:" + std::to_string(answers.port());

  (void)http::perform(bounded("GET", base + "/webhdfs/v1/f?op=GETFILESTATUS"));
  auto streamed = bounded("GET", base + "/webhdfs/v1/f?op=OPEN");
  std::size_t received = 0;
  streamed.write = [&received](std::string_view chunk) {
    received += chunk.size();
    return received < (1U << 20);
  };
  (void)http::perform(streamed);
  (void)http::perform(bounded("HEAD", base + "/"));
  // A redirect to itself answers the same bytes: the transport must stop following.
  auto followed = bounded("GET", base + "/webhdfs/v1/f?op=OPEN");
  followed.follow_redirects = true;
  (void)http::perform(followed);

  spindle::yarn::WebHdfs::Options options;
  options.namenode_http = "127.0.0.1:" + std::to_string(answers.port());
  options.default_fs = "hdfs://127.0.0.1:8020";
  options.user = "fuzz";
  options.connect_timeout = std::chrono::milliseconds(2000);
  spindle::yarn::WebHdfs hdfs(options);
  (void)hdfs.list("/user/fuzz");
  (void)hdfs.status("/user/fuzz/f");
  (void)hdfs.read_all("/user/fuzz/f", 1U << 20);
  (void)hdfs.write("/user/fuzz/f", "data", true);
  return 0;
}
