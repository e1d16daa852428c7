#include "container/master_locator.h"

#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::container {

MasterLocator::MasterLocator(std::string application_id, std::string user, TokenSource resource_manager_token)
    : application_id_(std::move(application_id)),
      user_(std::move(user)),
      resource_manager_token_(std::move(resource_manager_token)) {}

MasterLocator::~MasterLocator() = default;

std::optional<HostPort> MasterLocator::locate() {
  const auto id = yarn::ApplicationId::parse(application_id_);
  if (!id) return std::nullopt;
  auto token = resource_manager_token_ ? resource_manager_token_() : std::nullopt;
  if (client_ && token != client_token_) client_.reset();
  if (!client_) {
    auto configuration = yarn::HadoopConfiguration::from_environment();
    if (!configuration) return std::nullopt;
    auto options = yarn::ApplicationClient::options_for(*configuration).with_user(user_);
    // The caller polls; one quick try per call.
    options.retry = yarn::fixed_retries(0, std::chrono::milliseconds(0));
    options.connect_timeout = std::chrono::seconds(5);
    options.call_timeout = std::chrono::seconds(10);
    options.token = token;
    client_token_ = token;
    client_ = std::make_unique<yarn::ApplicationClient>(std::move(options));
  }
  auto report = client_->report(*id);
  if (!report) return std::nullopt;
  ended_ = report->finished();
  if (report->state != "RUNNING" || report->am_rpc_port <= 0 || report->am_host.empty() || report->am_host == "N/A") {
    return std::nullopt;
  }
  auto address = parse_host_port(report->am_host + ":" + std::to_string(report->am_rpc_port));
  if (!address) return std::nullopt;
  return *address;
}

}  // namespace spindle::container
