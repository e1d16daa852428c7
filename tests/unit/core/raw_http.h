#pragma once

#include <sys/socket.h>
#include <sys/time.h>

#include <array>
#include <boost/asio.hpp>
#include <cstdint>
#include <string>

namespace spindle {

// Sends `request` as it is to 127.0.0.1:`port` and returns every byte the
// server sends until it closes, or until `seconds` pass without a byte.
inline std::string raw_http(std::uint16_t port, const std::string& request, long seconds = 2) {
  namespace net = boost::asio;
  net::io_context io;
  net::ip::tcp::socket socket(io);
  socket.connect({net::ip::make_address("127.0.0.1"), port});
  boost::system::error_code ec;
  // The server may answer and close before all of a too-large request is sent.
  net::write(socket, net::buffer(request), ec);
  std::string answer;
  std::array<char, 4096> buffer{};
  ::timeval limit{seconds, 0};
  ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
  while (true) {
    const std::size_t n = socket.read_some(net::buffer(buffer), ec);
    if (ec || n == 0) break;
    answer.append(buffer.data(), n);
  }
  return answer;
}

}  // namespace spindle
