#include "spindle/core/job_api_client.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <optional>

#include "master/job_api_messages.h"
#include "spindle/core/asio_endpoints.h"
#include "spindle/core/gzip.h"
#include "spindle/core/job_certificate.h"
#include "spindle/core/maybe_tls_stream.h"
#include "spindle/core/zstd_codec.h"

namespace spindle {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
namespace ssl = net::ssl;

std::string message_of(const std::string& body, int status) {
  const auto parsed = nlohmann::json::parse(body, nullptr, false);
  if (!parsed.is_discarded() && parsed.is_object() && parsed.contains("error") && parsed["error"].is_string()) {
    return parsed["error"].get<std::string>();
  }
  return "HTTP " + std::to_string(status);
}

}  // namespace

struct JobApiClient::Connection {
  // With a pinned certificate, TLS; the job's certificate is self-signed, so
  // the pin, not a CA, says it is the job's.
  explicit Connection(bool tls) : context(make_context()), stream(beast::tcp_stream(io), tls ? &context : nullptr) {}
  static ssl::context make_context() {
    ssl::context made(ssl::context::tls_client);
    made.set_verify_mode(ssl::verify_none);
    return made;
  }
  net::io_context io;
  ssl::context context;
  MaybeTlsStream<beast::tcp_stream> stream;
  beast::flat_buffer buffer;
};

void JobApiClient::pin_certificate(std::string sha256) {
  pinned_sha256_ = std::move(sha256);
  connection_.reset();
}

JobApiClient::JobApiClient(std::string host, std::uint16_t port, std::string secret, std::chrono::milliseconds timeout)
    : host_(std::move(host)), port_(port), secret_(std::move(secret)), timeout_(timeout) {}

JobApiClient::~JobApiClient() = default;

Result<JobApiClient::Answer> JobApiClient::exchange(const std::string& method, const std::string& target,
                                                    const std::string& body, std::chrono::milliseconds timeout,
                                                    const Headers& headers) {
  const std::string where = "the application master's API at " + host_ + ":" + std::to_string(port_);
  // One retry on a fresh connection: a kept-alive one may have been closed.
  for (int attempt = 0; attempt < 2; ++attempt) {
    beast::error_code ec;
    if (!connection_) {
      auto fresh = std::make_unique<Connection>(!pinned_sha256_.empty());
      // A cluster answer is tens of KB; a buffer that starts small reads it 512 bytes at a time.
      fresh->buffer.reserve(64 * 1024);
      auto addresses = resolve_host(host_, port_);
      if (!addresses) return make_error("cannot reach " + where + ": " + addresses.error().message);
      fresh->stream.plain().expires_after(timeout_);
      fresh->stream.plain().connect(endpoints_of(*addresses), ec);
      if (ec) return make_error("cannot reach " + where + ": " + ec.message());
      if (fresh->stream.tls()) {
        fresh->stream.secured().handshake(ssl::stream_base::client, ec);
        if (ec) {
          return make_error("no TLS connection could be made to " + where + " (" + ec.message() +
                            "); the job's API speaks TLS on an encrypted cluster");
        }
        const auto presented = peer_certificate_sha256(fresh->stream.secured().native_handle());
        if (presented != pinned_sha256_) {
          return make_error(where + " presented a certificate other than the job's (SHA-256 " +
                            presented.substr(0, 16) + "..., the job's is " + pinned_sha256_.substr(0, 16) +
                            "...); nothing was sent: something between here and the master may be posing as it");
        }
      }
      connection_ = std::move(fresh);
    }
    const auto verb = method == "PUT" ? http::verb::put : method == "POST" ? http::verb::post : http::verb::get;
    http::request<http::string_body> request{verb, target, 11};
    request.set(http::field::host, host_);
    request.set("X-Spindle-Secret", secret_);
    request.keep_alive(true);
    for (const auto& [name, value] : headers) request.set(name, value);
    if (!body.empty()) {
      request.set(http::field::content_type, "application/json");
      request.body() = body;
    }
    request.prepare_payload();
    connection_->stream.plain().expires_after(timeout);
    http::response<http::string_body> response;
    http::write(connection_->stream, request, ec);
    if (!ec) http::read(connection_->stream, connection_->buffer, response, ec);
    if (ec) {
      connection_.reset();
      if (attempt == 0 && ec != beast::error::timeout) continue;
      return make_error(where + " did not answer: " + ec.message());
    }
    if (!response.keep_alive()) connection_.reset();
    const auto encoding = response[http::field::content_encoding];
    std::string coding;
    if (beast::iequals(encoding, "gzip") || beast::iequals(encoding, "zstd")) {
      coding = beast::iequals(encoding, "gzip") ? "gzip" : "zstd";
    } else if (!encoding.empty() && !beast::iequals(encoding, "identity")) {
      return make_error(where + " answered in an encoding this client cannot read: " + std::string(encoding));
    }
    return Answer{static_cast<int>(response.result_int()), std::move(response.body()), std::move(coding)};
  }
  return make_error("cannot reach " + where);
}

Result<void> JobApiClient::register_task(const TaskId& task, const HostPort& address, const std::string& container,
                                         const Reattachment& reattachment) {
  const std::string body =
      job_api::body_text(job_api::to_json(job_api::Registration{address, container, reattachment}));
  auto answer = exchange("PUT", "/v1/tasks/" + task.type + "/" + std::to_string(task.index), body, timeout_);
  if (!answer) return answer.error();
  if (answer->status != 200) {
    // An answer, unlike a master not up yet, is final: registering again gets the same.
    Error refusal = make_error("the application master refused " + task.to_string() + ": " +
                               message_of(answer->body, answer->status));
    refusal.kind = Error::Kind::refused;
    return refusal;
  }
  return {};
}

Result<std::optional<PublishedCluster>> JobApiClient::cluster_after(std::uint64_t after,
                                                                    std::chrono::milliseconds wait) {
  Headers headers{{"Accept-Encoding", "zstd, gzip"}};
  if (after > 0) headers.emplace_back("If-None-Match", "\"" + std::to_string(after) + "\"");
  auto answer =
      exchange("GET", "/v1/cluster?after=" + std::to_string(after) + "&wait_ms=" + std::to_string(wait.count()), "",
               wait + timeout_, headers);
  if (!answer) return answer.error();
  if (answer->status == 204 || answer->status == 304) return std::optional<PublishedCluster>{};
  if (!answer->coding.empty()) {
    auto plain = answer->coding == "zstd" ? zstd_decompress(answer->body) : gzip_decompress(answer->body);
    if (!plain) return make_error("the application master's cluster answer cannot be read: " + plain.error().message);
    answer->body = std::move(*plain);
    answer->coding.clear();
  }
  if (answer->status != 200) {
    return make_error("the application master gave no cluster: " + message_of(answer->body, answer->status));
  }
  const auto parsed = nlohmann::json::parse(answer->body, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object() || !parsed.contains("version") ||
      !parsed["version"].is_number_unsigned() || !parsed.contains("cluster") || !parsed["cluster"].is_object()) {
    return make_error("the application master's cluster answer is not {\"version\", \"cluster\"}");
  }
  PublishedCluster published{parsed["version"].get<std::uint64_t>(), parsed["cluster"].dump(), {}};
  // The training cluster's lists give their tasks' addresses by position;
  // "tasks" names the rest (and, from an older master, every task again).
  for (const auto& [type, list] : parsed["cluster"].items()) {
    if (!list.is_array()) return make_error("the application master's cluster lists no addresses for " + type);
    for (std::size_t index = 0; index < list.size(); ++index) {
      auto address =
          list[index].is_string() ? parse_host_port(list[index].get<std::string>()) : make_error("not a string");
      if (!address) return make_error("the application master's cluster names a bad address for " + type);
      published.addresses[TaskId{type, static_cast<int>(index)}] = *address;
    }
  }
  if (parsed.contains("tasks") && parsed["tasks"].is_object()) {
    for (const auto& [name, value] : parsed["tasks"].items()) {
      auto task = parse_task_id(name);
      auto address = value.is_string() ? parse_host_port(value.get<std::string>()) : make_error("not a string");
      if (!task || !address) return make_error("the application master's cluster names a bad task or address: " + name);
      published.addresses[*task] = *address;
    }
  }
  if (parsed.contains("ending")) {
    if (!parsed["ending"].is_string() || parsed["ending"].get<std::string>().empty())
      return make_error("the application master's cluster answer gives \"ending\" as something other than a reason");
    published.ending = parsed["ending"].get<std::string>();
  }
  return std::optional<PublishedCluster>{std::move(published)};
}

Result<void> JobApiClient::heartbeat(const TaskId& task, const TaskHeartbeat& heartbeat) {
  const std::string body = job_api::body_text(job_api::to_json(heartbeat));
  auto answer =
      exchange("POST", "/v1/tasks/" + task.type + "/" + std::to_string(task.index) + "/heartbeat", body, timeout_);
  if (!answer) return answer.error();
  if (answer->status != 200) return make_error("heartbeat refused: " + message_of(answer->body, answer->status));
  return {};
}

Result<void> JobApiClient::report_result(const TaskId& task, const TaskResult& result) {
  const std::string body = job_api::body_text(job_api::to_json(result));
  auto answer =
      exchange("POST", "/v1/tasks/" + task.type + "/" + std::to_string(task.index) + "/result", body, timeout_);
  if (!answer) return answer.error();
  if (answer->status != 200) return make_error("result refused: " + message_of(answer->body, answer->status));
  return {};
}

Result<std::string> JobApiClient::status_json() {
  auto answer = exchange("GET", "/v1/status", "", timeout_);
  if (!answer) return answer.error();
  if (answer->status != 200) {
    return make_error("the application master gave no status: " + message_of(answer->body, answer->status));
  }
  return std::move(answer->body);
}

Result<std::vector<JobEvent>> JobApiClient::events_after(std::uint64_t after, std::chrono::milliseconds wait) {
  auto answer =
      exchange("GET", "/v1/events?after=" + std::to_string(after) + "&wait_ms=" + std::to_string(wait.count()), "",
               wait + timeout_);
  if (!answer) return answer.error();
  if (answer->status != 200) {
    return make_error("the application master gave no events: " + message_of(answer->body, answer->status));
  }
  return job_api::events_from_json(nlohmann::json::parse(answer->body, nullptr, false));
}

Result<std::optional<std::pair<std::uint64_t, std::string>>> JobApiClient::tokens_after(
    std::uint64_t after, std::chrono::milliseconds wait) {
  auto answer =
      exchange("GET", "/v1/tokens?after=" + std::to_string(after) + "&wait_ms=" + std::to_string(wait.count()), "",
               wait + timeout_);
  if (!answer) return answer.error();
  using Held = std::optional<std::pair<std::uint64_t, std::string>>;
  if (answer->status == 204) return Held{};
  if (answer->status != 200) {
    return make_error("the application master gave no tokens: " + message_of(answer->body, answer->status));
  }
  auto tokens = job_api::tokens_from_json(nlohmann::json::parse(answer->body, nullptr, false));
  if (!tokens) return tokens.error();
  return Held{std::make_pair(tokens->generation, std::move(tokens->credentials))};
}

}  // namespace spindle
