#pragma once

// A one-thread HTTP/1.1 server on 127.0.0.1 for offline tests of the HTTP
// clients: every request (head and body) goes to a handler that returns
// the whole raw response; each connection carries one exchange.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace spindle::yarn::testing {

class FakeHttpServer {
 public:
  using Handler = std::function<std::string(const std::string& request)>;

  explicit FakeHttpServer(Handler handler) : handler_(std::move(handler)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    socklen_t length = sizeof(address);
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    ::listen(listener_, 16);
    thread_ = std::thread([this] { serve(); });
  }

  ~FakeHttpServer() {
    stopping_ = true;
    ::shutdown(listener_, SHUT_RDWR);
    ::close(listener_);
    thread_.join();
  }

  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  std::vector<std::string> requests() {
    std::lock_guard lock(mutex_);
    return requests_;
  }

  static std::string answer(int status, const std::string& reason, const std::string& body,
                            const std::string& extra_headers = "") {
    return "HTTP/1.1 " + std::to_string(status) + " " + reason + "\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\nConnection: close\r\n" + extra_headers + "\r\n" + body;
  }

 private:
  void serve() {
    while (!stopping_) {
      const int connection = ::accept(listener_, nullptr, nullptr);
      if (connection < 0) return;
      std::string request;
      char buffer[4096];
      std::size_t wanted = std::string::npos;
      while (request.size() < wanted) {
        const auto got = ::recv(connection, buffer, sizeof(buffer), 0);
        if (got <= 0) break;
        request.append(buffer, static_cast<std::size_t>(got));
        const auto head_end = request.find("\r\n\r\n");
        if (head_end != std::string::npos && wanted == std::string::npos) {
          std::size_t body = 0;
          if (const auto at = request.find("Content-Length: "); at != std::string::npos && at < head_end) {
            body = std::stoul(request.substr(at + 16));
          }
          wanted = head_end + 4 + body;
        }
      }
      {
        std::lock_guard lock(mutex_);
        requests_.push_back(request);
      }
      const std::string response = handler_(request);
      ::send(connection, response.data(), response.size(), MSG_NOSIGNAL);
      ::shutdown(connection, SHUT_WR);
      while (::recv(connection, buffer, sizeof(buffer), 0) > 0) {
      }
      ::close(connection);
    }
  }

  Handler handler_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_ = false;
  std::mutex mutex_;
  std::vector<std::string> requests_;
  std::thread thread_;
};

}  // namespace spindle::yarn::testing
