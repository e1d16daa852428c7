// The TensorBoard proxy with fixed upstreams, for bench/proxy/run:
//
//   proxy_bench_server --port N [--threads T] APPLICATION_ID=HOST:PORT ...
//
// Prints "listening on N" once ready and serves until SIGINT or SIGTERM.

#include <signal.h>

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <string_view>

#include "spindle/tbproxy/proxy_server.h"

namespace {

using spindle::tbproxy::UpstreamAddress;

bool parse_number(std::string_view text, int& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

int usage(const std::string& problem) {
  std::cerr << problem << "\nusage: proxy_bench_server --port N [--threads T] APPLICATION_ID=HOST:PORT ...\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  spindle::tbproxy::ProxyOptions options;
  std::map<std::string, UpstreamAddress> upstreams;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    int number = 0;
    if ((argument == "--port" || argument == "--threads") && i + 1 < argc) {
      if (!parse_number(argv[++i], number) || number < 0) return usage(std::string(argv[i]) + " is not a number");
      if (argument == "--port") options.port = static_cast<std::uint16_t>(number);
      if (argument == "--threads") options.threads = number;
      continue;
    }
    const auto equals = argument.find('=');
    const auto colon = argument.rfind(':');
    if (equals == std::string_view::npos || colon == std::string_view::npos || colon < equals ||
        !parse_number(argument.substr(colon + 1), number)) {
      return usage("\"" + std::string(argument) + "\" is not APPLICATION_ID=HOST:PORT");
    }
    upstreams[std::string(argument.substr(0, equals))] = UpstreamAddress{
        std::string(argument.substr(equals + 1, colon - equals - 1)), static_cast<std::uint16_t>(number)};
  }
  if (upstreams.empty()) return usage("name at least one upstream");

  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  auto server = spindle::tbproxy::ProxyServer::start(
      options, [upstreams](const std::string& application_id) -> spindle::tbproxy::UpstreamLookup {
        const auto found = upstreams.find(application_id);
        if (found == upstreams.end()) return spindle::tbproxy::UpstreamUnavailable{};
        return found->second;
      });
  if (!server) {
    std::cerr << server.error().message << '\n';
    return 1;
  }
  std::cout << "listening on " << (*server)->port() << std::endl;
  int received = 0;
  sigwait(&stop_signals, &received);
  (*server)->stop();
  return 0;
}
