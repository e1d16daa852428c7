#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "spindle/core/result.h"

namespace spindle::tbproxy {

// Where one job's TensorBoard listens.
struct UpstreamAddress {
  std::string host;
  std::uint16_t port = 0;
  // When set, the TensorBoard serves TLS with the certificate of this pin
  // (SHA-256 of its DER bytes, lower-case hex), and only that one is taken.
  std::string certificate_sha256{};

  // host:port, with an IPv6 host in brackets.
  std::string authority() const {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
  }
};

// Why a job's TensorBoard cannot be reached; each gives the visitor its own page.
enum class UpstreamState {
  unknown,      // no such job on this machine, or it has no TensorBoard: 404
  starting,     // the job runs but TensorBoard has no address yet: 502, the page retries
  ended,        // the job is over and its TensorBoard with it: 410
  unreachable,  // the cluster or the job's master did not answer: 502, the page retries
  forbidden,    // the job belongs to somebody else: 403
};

struct UpstreamUnavailable {
  UpstreamState state = UpstreamState::unknown;
  std::string message;  // one sentence for the page; empty for the default one
};

using UpstreamLookup = Result<UpstreamAddress, UpstreamUnavailable>;

// Finds the TensorBoard of an application id (already checked to be one).
// Called from a small pool of threads set aside for it, so it may block on
// the network; the proxy keeps each answer for a few seconds.
using UpstreamResolver = std::function<UpstreamLookup(const std::string& application_id)>;

}  // namespace spindle::tbproxy
