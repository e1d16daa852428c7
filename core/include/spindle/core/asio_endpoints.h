#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <cstring>
#include <vector>

#include "spindle/core/host_names.h"

namespace spindle {

// Addresses from resolve_host as endpoints Boost.Asio can connect to.
inline std::vector<boost::asio::ip::tcp::endpoint> endpoints_of(const std::vector<SocketAddress>& addresses) {
  std::vector<boost::asio::ip::tcp::endpoint> endpoints;
  for (const auto& address : addresses) {
    boost::asio::ip::tcp::endpoint endpoint;
    if (address.length > endpoint.capacity()) continue;
    std::memcpy(endpoint.data(), &address.storage, address.length);
    endpoint.resize(address.length);
    endpoints.push_back(endpoint);
  }
  return endpoints;
}

}  // namespace spindle
