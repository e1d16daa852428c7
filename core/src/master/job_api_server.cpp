#include "spindle/core/job_api_server.h"

#include "master/job_api_messages.h"
#include "net/query_string.h"
#include "spindle/core/job_page.h"
#include "spindle/core/job_status.h"
#include "spindle/core/maybe_tls_stream.h"
#include "spindle/core/text.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <thread>
#include <vector>

namespace spindle {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
namespace ssl = net::ssl;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

std::string error_json(const std::string& message) {
  // Messages quote the request, which may be any bytes.
  return nlohmann::json{{"error", message}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// "after=3&wait_ms=1000" -> the value of one key, if present and a number.
std::optional<std::uint64_t> query_number(std::string_view query, std::string_view key) {
  const auto digits = query_value(query, key);
  if (!digits) return std::nullopt;
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(digits->data(), digits->data() + digits->size(), value);
  if (ec == std::errc() && ptr == digits->data() + digits->size()) return value;
  return std::nullopt;
}

// Whether an Accept-Encoding header takes `wanted` (lower case): named, or
// "*" when `by_wildcard`, and not refused with q=0.
bool accepts_coding(std::string_view header, std::string_view wanted, bool by_wildcard) {
  std::size_t start = 0;
  while (start < header.size()) {
    const auto end = std::min(header.find(',', start), header.size());
    const auto item = header.substr(start, end - start);
    start = end + 1;
    const auto semicolon = item.find(';');
    const auto coding = trim(item.substr(0, semicolon), http_whitespace);
    const bool named = coding.size() == wanted.size() && std::equal(coding.begin(), coding.end(), wanted.begin(),
                                                                    [](char a, char b) { return (a | 0x20) == b; });
    if (!named && !(by_wildcard && coding == "*")) continue;
    if (semicolon == std::string_view::npos) return true;
    auto parameter = trim(item.substr(semicolon + 1), http_whitespace);
    if (!parameter.starts_with("q=") && !parameter.starts_with("Q=")) return true;
    parameter.remove_prefix(2);
    // q=0, q=0.0, q=0.000: refused; any other weight accepts.
    if (parameter.empty() || parameter.find_first_not_of("0.") != std::string_view::npos) return true;
  }
  return false;
}

// The cluster answer's coding: zstd when the executor names it (the
// smallest), else gzip when it takes it (named or "*"), else plain JSON.
enum class AnswerCoding { identity, gzip, zstd };
AnswerCoding answer_coding(std::string_view accept_encoding) {
  if (accepts_coding(accept_encoding, "zstd", false)) return AnswerCoding::zstd;
  if (accepts_coding(accept_encoding, "gzip", true)) return AnswerCoding::gzip;
  return AnswerCoding::identity;
}

std::string etag_of(std::uint64_t version) {
  return "\"" + std::to_string(version) + "\"";
}

// The newest version named by an If-None-Match header of our own ETags.
std::optional<std::uint64_t> version_of_etags(std::string_view header) {
  std::optional<std::uint64_t> newest;
  std::size_t start = 0;
  while (start < header.size()) {
    const auto end = std::min(header.find(',', start), header.size());
    auto tag = header.substr(start, end - start);
    start = end + 1;
    while (!tag.empty() && tag.front() == ' ') tag.remove_prefix(1);
    while (!tag.empty() && tag.back() == ' ') tag.remove_suffix(1);
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag.size() < 3 || tag.front() != '"' || tag.back() != '"') continue;
    tag = tag.substr(1, tag.size() - 2);
    std::uint64_t value = 0;
    auto [ptr, ec] = std::from_chars(tag.data(), tag.data() + tag.size(), value);
    if (ec == std::errc() && ptr == tag.data() + tag.size()) newest = std::max(newest.value_or(0), value);
  }
  return newest;
}

// A response body that refers to a buffer shared by every response that
// sends it: a cluster version is written to thousands of executors from the
// one copy the rendezvous encoded.
struct SharedBody {
  using value_type = std::shared_ptr<const std::string>;
  static std::uint64_t size(const value_type& body) { return body ? body->size() : 0; }
  class writer {
   public:
    using const_buffers_type = net::const_buffer;
    template <bool isRequest, class Fields>
    writer(const http::header<isRequest, Fields>&, const value_type& body) : body_(body) {}
    void init(beast::error_code& ec) { ec = {}; }
    boost::optional<std::pair<const_buffers_type, bool>> get(beast::error_code& ec) {
      ec = {};
      if (!body_ || body_->empty()) return boost::none;
      return {{net::const_buffer(body_->data(), body_->size()), false}};
    }

   private:
    const value_type& body_;
  };
};

class Server;

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, ssl::context* tls, Server& server)
      : stream_(beast::tcp_stream(std::move(socket)), tls), server_(server), poll_timer_(stream_.get_executor()) {}
  void run() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      if (!self->stream_.tls()) {
        self->read();
        return;
      }
      // A client that speaks clear HTTP, or another certificate's idea of
      // TLS, fails here and is never answered.
      self->stream_.plain().expires_after(std::chrono::seconds(30));
      self->stream_.secured().async_handshake(ssl::stream_base::server, [self](beast::error_code ec) {
        if (ec) {
          self->stream_.close();
          return;
        }
        self->read();
      });
    });
  }

 private:
  void read();
  void on_read(beast::error_code ec);
  void handle(Request request);
  void handle_register(const Request& request, std::string_view type, std::string_view index);
  void handle_cluster(const Request& request, std::string_view query);
  void handle_tokens(const Request& request, std::string_view query, TokenShelf& shelf);
  // A long poll of up to ?wait_ms= (capped): `subscribe` gives a source the
  // callback that answers 200 with a body and returns the ticket `forget`
  // takes back when the wait ends first, with what `timed_out` gives.
  using Answer = std::function<void(std::string body)>;
  using Subscribe = std::function<std::uint64_t(Answer answer)>;
  using TimedOut = std::function<std::pair<http::status, std::string>()>;
  void long_poll(const Request& request, std::string_view query, const Subscribe& subscribe,
                 const std::function<void(std::uint64_t ticket)>& forget, const TimedOut& timed_out);
  void handle_task_report(const Request& request, std::string_view type, std::string_view index, std::string_view what);
  void handle_events(const Request& request, std::string_view query);
  void handle_page(const Request& request);
  // The HTTP version and keep-alive of the request being answered.
  struct Answering {
    unsigned version = 11;
    bool keep_alive = false;
  };
  static Answering answering(const Request& request) { return {request.version(), request.keep_alive()}; }
  void reply(const Request& request, http::status status, std::string body) {
    reply(answering(request), status, std::move(body));
  }
  void reply(Answering to, http::status status, std::string body, std::string_view content_type = "application/json");
  void reply_cluster(Answering to, const ClusterVersion& version, AnswerCoding coding);
  void reply_not_modified(Answering to, std::uint64_t version);
  template <typename Message>
  void send(std::shared_ptr<Message> response);

  MaybeTlsStream<beast::tcp_stream> stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Server& server_;
  net::steady_timer poll_timer_;
};

class Server final : public JobApiServer {
 public:
  Server(Rendezvous& rendezvous, JobApiOptions options, JobApiBackend* backend)
      : rendezvous_(rendezvous), options_(std::move(options)), backend_(backend), acceptor_(io_) {}
  ~Server() override { stop(); }

  Result<void> listen() {
    beast::error_code ec;
    if (!options_.tls_certificate_pem.empty() || !options_.tls_key_pem.empty()) {
      tls_.emplace(ssl::context::tls_server);
      tls_->set_options(ssl::context::no_sslv2 | ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                        ssl::context::no_tlsv1_1);
      // Thousands of executors wait in long polls: an idle connection gives
      // its read and write buffers back instead of holding tens of KB each.
      SSL_CTX_set_mode(tls_->native_handle(), SSL_MODE_RELEASE_BUFFERS);
      tls_->use_certificate_chain(net::buffer(options_.tls_certificate_pem), ec);
      if (!ec) tls_->use_private_key(net::buffer(options_.tls_key_pem), ssl::context::pem, ec);
      if (ec) return make_error("the job API's certificate or key cannot be used: " + ec.message());
    }
    const auto address = net::ip::make_address(options_.bind_address, ec);
    if (ec) return make_error("\"" + options_.bind_address + "\" is not an address to listen on");
    const tcp::endpoint endpoint(address, options_.port);
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) {
      return make_error("the job API cannot listen on " + options_.bind_address + ":" + std::to_string(options_.port) +
                        ": " + ec.message());
    }
    port_ = acceptor_.local_endpoint().port();
    accept();
    for (int i = 0; i < std::max(1, options_.threads); ++i) threads_.emplace_back([this] { io_.run(); });
    return {};
  }

  std::uint16_t port() const override { return port_; }

  void stop() override {
    if (stopped_.exchange(true)) return;
    net::post(io_, [this] {
      beast::error_code ignored;
      acceptor_.close(ignored);
    });
    io_.stop();
    for (auto& thread : threads_) thread.join();
  }

  Rendezvous& rendezvous() { return rendezvous_; }
  const JobApiOptions& options() const { return options_; }
  JobApiBackend* backend() { return backend_; }

 private:
  void accept() {
    acceptor_.async_accept(net::make_strand(io_), [this](beast::error_code ec, tcp::socket socket) {
      if (ec == net::error::operation_aborted) return;
      if (!ec) {
        std::make_shared<Session>(std::move(socket), tls_ ? &*tls_ : nullptr, *this)->run();
        accept();
        return;
      }
      // Out of descriptors or memory: accepting again at once would spin.
      accept_pause_.expires_after(std::chrono::milliseconds(50));
      accept_pause_.async_wait([this](beast::error_code wait_ec) {
        if (!wait_ec) accept();
      });
    });
  }

  Rendezvous& rendezvous_;
  JobApiOptions options_;
  JobApiBackend* backend_;
  net::io_context io_;
  tcp::acceptor acceptor_;
  std::optional<ssl::context> tls_;
  net::steady_timer accept_pause_{io_};
  std::vector<std::thread> threads_;
  std::uint16_t port_ = 0;
  std::atomic<bool> stopped_ = false;
};

void Session::read() {
  parser_.emplace();
  parser_->body_limit(server_.options().max_request_bytes);
  parser_->header_limit(16 * 1024);
  buffer_.clear();
  // An idle keep-alive connection is closed after a while.
  stream_.plain().expires_after(std::chrono::seconds(120));
  http::async_read(stream_, buffer_, *parser_,
                   [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
}

void Session::on_read(beast::error_code ec) {
  if (ec == http::error::end_of_stream || ec == net::error::operation_aborted || ec == beast::error::timeout ||
      ec == net::error::connection_reset || ec == net::error::eof) {
    stream_.close();
    return;
  }
  if (ec == http::error::body_limit) {
    reply(Answering{}, http::status::payload_too_large, error_json("the request body is larger than this API takes"));
    return;
  }
  if (ec == http::error::header_limit) {
    reply(Answering{}, http::status::request_header_fields_too_large,
          error_json("the request's headers are too large"));
    return;
  }
  if (ec) {
    reply(Answering{}, http::status::bad_request, error_json("malformed HTTP request: " + ec.message()));
    return;
  }
  stream_.plain().expires_never();
  handle(parser_->release());
}

void Session::handle(Request request) {
  // The job's page is for people, reached through the ResourceManager's
  // proxy, which knows no secret; it shows nothing that grants access.
  if (const std::string_view target(request.target().data(), request.target().size());
      (target == "/" || target == "/index.html" || target.starts_with("/?")) && server_.backend() &&
      request.method() == http::verb::get) {
    handle_page(request);
    return;
  }
  const auto secret_field = request["X-Spindle-Secret"];
  const std::string_view secret(secret_field.data(), secret_field.size());
  if (!same_secret(secret, server_.options().secret)) {
    reply(request, http::status::unauthorized, error_json("this job's API needs the job's secret"));
    return;
  }
  const std::string_view target(request.target().data(), request.target().size());
  const auto question = target.find('?');
  const std::string_view path = target.substr(0, question);
  const std::string_view query = question == std::string_view::npos ? "" : target.substr(question + 1);
  constexpr std::string_view tasks = "/v1/tasks/";
  if (path.starts_with(tasks)) {
    // <type>/<index> or <type>/<index>/<report>
    const auto rest = path.substr(tasks.size());
    const auto slash = rest.find('/');
    const auto second = slash == std::string_view::npos ? slash : rest.find('/', slash + 1);
    if (slash != std::string_view::npos && second == std::string_view::npos && request.method() == http::verb::put) {
      handle_register(request, rest.substr(0, slash), rest.substr(slash + 1));
      return;
    }
    if (second != std::string_view::npos && request.method() == http::verb::post && server_.backend()) {
      handle_task_report(request, rest.substr(0, slash), rest.substr(slash + 1, second - slash - 1),
                         rest.substr(second + 1));
      return;
    }
  }
  if (path == "/v1/cluster" && request.method() == http::verb::get) {
    handle_cluster(request, query);
    return;
  }
  if (path == "/v1/status" && request.method() == http::verb::get && server_.backend()) {
    auto selection = parse_task_selection(query);
    if (!selection) {
      reply(request, http::status::bad_request, error_json(selection.error().message));
      return;
    }
    reply(request, http::status::ok, job_api::body_text(to_json(server_.backend()->status(*selection))));
    return;
  }
  if (path == "/v1/events" && request.method() == http::verb::get && server_.backend()) {
    handle_events(request, query);
    return;
  }
  if (path == "/v1/tokens" && request.method() == http::verb::get && server_.backend() && server_.backend()->tokens()) {
    handle_tokens(request, query, *server_.backend()->tokens());
    return;
  }
  reply(request, http::status::not_found, error_json("no such resource: " + std::string(path)));
}

std::optional<int> task_index(std::string_view text) {
  int index = -1;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
  if (ec != std::errc() || ptr != text.data() + text.size() || index < 0) return std::nullopt;
  return index;
}

void Session::handle_register(const Request& request, std::string_view type, std::string_view index_text) {
  const auto parsed_index = task_index(index_text);
  if (!parsed_index) {
    reply(request, http::status::bad_request, error_json("\"" + std::string(index_text) + "\" is not a task index"));
    return;
  }
  const int index = *parsed_index;
  auto registration = job_api::registration_from_json(nlohmann::json::parse(request.body(), nullptr, false));
  if (!registration) {
    reply(request, http::status::bad_request, error_json(registration.error().message));
    return;
  }
  const TaskId task{std::string(type), index};
  const auto& [address, container, reattachment] = *registration;
  auto registered = server_.backend() ? server_.backend()->register_task(task, address, container, reattachment)
                                      : server_.rendezvous().register_task(task, address, container);
  if (!registered) {
    reply(request, http::status::conflict, error_json(registered.error().message));
    return;
  }
  reply(request, http::status::ok, R"({"registered":true})");
}

void Session::handle_task_report(const Request& request, std::string_view type, std::string_view index_text,
                                 std::string_view what) {
  const auto index = task_index(index_text);
  if (!index) {
    reply(request, http::status::bad_request, error_json("\"" + std::string(index_text) + "\" is not a task index"));
    return;
  }
  const auto body = nlohmann::json::parse(request.body(), nullptr, false);
  const TaskId task{std::string(type), *index};
  Result<void> taken;
  if (what == "heartbeat") {
    auto heartbeat = job_api::heartbeat_from_json(body);
    if (!heartbeat) {
      reply(request, http::status::bad_request, error_json(heartbeat.error().message));
      return;
    }
    taken = server_.backend()->heartbeat(task, *heartbeat);
  } else if (what == "result") {
    auto result = job_api::result_from_json(body);
    if (!result) {
      reply(request, http::status::bad_request, error_json(result.error().message));
      return;
    }
    taken = server_.backend()->result(task, *result);
  } else {
    reply(request, http::status::not_found, error_json("a task reports a \"heartbeat\" or a \"result\""));
    return;
  }
  if (!taken) {
    reply(request, http::status::conflict, error_json(taken.error().message));
    return;
  }
  reply(request, http::status::ok, R"({"accepted":true})");
}

void Session::long_poll(const Request& request, std::string_view query, const Subscribe& subscribe,
                        const std::function<void(std::uint64_t ticket)>& forget, const TimedOut& timed_out) {
  const auto wait = std::chrono::milliseconds(std::min<std::uint64_t>(
      query_number(query, "wait_ms").value_or(0), static_cast<std::uint64_t>(server_.options().longest_wait.count())));
  auto answered = std::make_shared<std::atomic<bool>>(false);
  auto self = shared_from_this();
  const Answering to = answering(request);
  // The source holds the waiter only weakly: a session that went away is not
  // kept alive by it, and one whose poll timed out takes it back.
  std::weak_ptr<Session> weak = self;
  const auto ticket = subscribe([weak, answered, to](std::string body) {
    auto session = weak.lock();
    if (!session || answered->exchange(true)) return;
    net::post(session->stream_.get_executor(), [session, to, body = std::move(body)]() mutable {
      session->poll_timer_.cancel();
      session->reply(to, http::status::ok, std::move(body));
    });
  });
  poll_timer_.expires_after(wait);
  poll_timer_.async_wait([self, answered, to, forget, timed_out, ticket](beast::error_code ec) {
    if (ec || answered->exchange(true)) return;
    forget(ticket);
    auto [status, body] = timed_out();
    self->reply(to, status, std::move(body));
  });
}

void Session::handle_events(const Request& request, std::string_view query) {
  const std::uint64_t after = query_number(query, "after").value_or(0);
  auto& log = server_.backend()->events();
  long_poll(
      request, query,
      [&log, after](Answer answer) {
        return log.when_after(after, [answer = std::move(answer)](std::vector<JobEvent> events) {
          const auto last = events.empty() ? 0 : events.back().sequence;
          answer(job_api::body_text(job_api::events_to_json(events, last)));
        });
      },
      [&log](std::uint64_t ticket) { log.forget(ticket); },
      [&log, after] {
        return std::make_pair(http::status::ok,
                              job_api::body_text(job_api::events_to_json({}, std::max(after, log.last()))));
      });
}

void Session::handle_tokens(const Request& request, std::string_view query, TokenShelf& shelf) {
  const std::uint64_t after = query_number(query, "after").value_or(0);
  long_poll(
      request, query,
      [&shelf, after](Answer answer) {
        return shelf.when_after(after,
                                [answer = std::move(answer)](std::uint64_t generation, const std::string& credentials) {
                                  answer(job_api::body_text(job_api::tokens_to_json(generation, credentials)));
                                });
      },
      [&shelf](std::uint64_t ticket) { shelf.forget(ticket); },
      [] { return std::make_pair(http::status::no_content, std::string()); });
}

void Session::handle_cluster(const Request& request, std::string_view query) {
  const auto accept_encoding = request[http::field::accept_encoding];
  const auto coding = answer_coding(std::string_view(accept_encoding.data(), accept_encoding.size()));
  // An executor names the version it holds by its ETag (or by ?after=N);
  // while nothing newer comes, it is told 304 and keeps what it has.
  const auto if_none_match = request[http::field::if_none_match];
  const auto held = version_of_etags(std::string_view(if_none_match.data(), if_none_match.size()));
  const std::uint64_t after = std::max(query_number(query, "after").value_or(0), held.value_or(0));
  const auto wait = std::chrono::milliseconds(std::min<std::uint64_t>(
      query_number(query, "wait_ms").value_or(0), static_cast<std::uint64_t>(server_.options().longest_wait.count())));
  auto answered = std::make_shared<std::atomic<bool>>(false);
  auto self = shared_from_this();
  const Answering to = answering(request);
  std::weak_ptr<Session> weak = self;  // see handle_events
  auto& rendezvous = server_.rendezvous();
  const auto ticket =
      rendezvous.when_newer(after, [weak, answered, to, coding](std::shared_ptr<const ClusterVersion> version) {
        auto session = weak.lock();
        if (!session || answered->exchange(true)) return;  // gone, or the wait already ended
        net::post(session->stream_.get_executor(), [session, to, coding, version = std::move(version)] {
          session->poll_timer_.cancel();
          session->reply_cluster(to, *version, coding);
        });
      });
  poll_timer_.expires_after(wait);
  poll_timer_.async_wait([self, answered, to, &rendezvous, ticket, held](beast::error_code ec) {
    if (ec || answered->exchange(true)) return;
    rendezvous.forget(ticket);
    if (held) {
      self->reply_not_modified(to, *held);
    } else {
      self->reply(to, http::status::no_content, "");
    }
  });
}

void Session::handle_page(const Request& request) {
  const std::string_view target(request.target().data(), request.target().size());
  const auto question = target.find('?');
  const auto page = job_page_selection(question == std::string_view::npos ? "" : target.substr(question + 1));
  reply(answering(request), http::status::ok, render_job_page(server_.backend()->status(page), page.type),
        "text/html; charset=utf-8");
}

void Session::reply(Answering to, http::status status, std::string body, std::string_view content_type) {
  auto response = std::make_shared<Response>(status, to.version);
  response->set(http::field::server, "spindle");
  if (!body.empty())
    response->set(http::field::content_type, beast::string_view(content_type.data(), content_type.size()));
  response->keep_alive(to.keep_alive);
  response->body() = std::move(body);
  response->prepare_payload();
  send(std::move(response));
}

void Session::reply_cluster(Answering to, const ClusterVersion& version, AnswerCoding coding) {
  auto response = std::make_shared<http::response<SharedBody>>(http::status::ok, to.version);
  response->set(http::field::server, "spindle");
  response->set(http::field::content_type, "application/json");
  response->set(http::field::etag, etag_of(version.version));
  response->set(http::field::vary, "Accept-Encoding");
  // Only the headers are this response's own; the body is the version's.
  if (coding == AnswerCoding::zstd && version.answer_zstd && !version.answer_zstd->empty()) {
    response->set(http::field::content_encoding, "zstd");
    response->body() = version.answer_zstd;
  } else if (coding == AnswerCoding::gzip && version.answer_gzip && !version.answer_gzip->empty()) {
    response->set(http::field::content_encoding, "gzip");
    response->body() = version.answer_gzip;
  } else {
    response->body() = version.answer_json;
  }
  response->keep_alive(to.keep_alive);
  response->prepare_payload();
  send(std::move(response));
}

void Session::reply_not_modified(Answering to, std::uint64_t version) {
  auto response = std::make_shared<http::response<http::empty_body>>(http::status::not_modified, to.version);
  response->set(http::field::server, "spindle");
  response->set(http::field::etag, etag_of(version));
  response->set(http::field::vary, "Accept-Encoding");
  response->keep_alive(to.keep_alive);
  send(std::move(response));
}

template <typename Message>
void Session::send(std::shared_ptr<Message> response) {
  http::async_write(stream_, *response, [self = shared_from_this(), response](beast::error_code ec, std::size_t) {
    if (ec || !response->keep_alive()) {
      self->stream_.close();
      return;
    }
    self->read();
  });
}

}  // namespace

Result<std::unique_ptr<JobApiServer>> JobApiServer::start(Rendezvous& rendezvous, JobApiOptions options,
                                                          JobApiBackend* backend) {
  auto server = std::make_unique<Server>(rendezvous, std::move(options), backend);
  try {
    if (auto listening = server->listen(); !listening) return listening.error();
  } catch (const std::exception& e) {
    return make_error(std::string("the job API could not start: ") + e.what());
  }
  return std::unique_ptr<JobApiServer>(std::move(server));
}

}  // namespace spindle
