#include "container/master_link.h"

#include <iostream>

namespace spindle::container {
namespace {

// How long the master may fail to answer before the executor looks for
// another attempt, and how often it asks YARN meanwhile.
constexpr auto patience = std::chrono::seconds(8);
constexpr auto lookup_interval = std::chrono::seconds(2);

}  // namespace

std::unique_ptr<JobApiClient> job_api_client(const HostPort& api, const std::string& secret, const std::string& pin) {
  auto client = std::make_unique<JobApiClient>(api.host, api.port, secret);
  if (!pin.empty()) client->pin_certificate(pin);
  return client;
}

MasterLink::MasterLink(HostPort api, std::string secret, std::string pin, std::string application_id, std::string user,
                       MasterLocator::TokenSource resource_manager_token)
    : api_(std::move(api)),
      secret_(std::move(secret)),
      pin_(std::move(pin)),
      client_(job_api_client(api_, secret_, pin_)),
      locator_(std::move(application_id), std::move(user), std::move(resource_manager_token)) {}

HostPort MasterLink::api() const {
  std::lock_guard lock(mutex_);
  return api_;
}

std::uint64_t MasterLink::generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

bool MasterLink::follow(const TaskId& task, const HostPort& address, const std::string& container,
                        const Reattachment& reattachment) {
  const auto now = Clock::now();
  if (!failing_since_) failing_since_ = now;
  if (now - *failing_since_ < patience || now < next_lookup_) return false;
  next_lookup_ = now + lookup_interval;
  const auto located = locator_.locate();
  if (!located || *located == api()) return false;
  auto moved = job_api_client(*located, secret_, pin_);
  if (auto registered = moved->register_task(task, address, container, reattachment); !registered) {
    std::cerr << "spindle executor: the application master now at " << located->to_string()
              << " did not take the task back: " << registered.error().message << std::endl;
    return false;
  }
  {
    std::lock_guard lock(mutex_);
    api_ = *located;
    ++generation_;
  }
  client_ = std::move(moved);
  failing_since_.reset();
  std::cerr << "spindle executor: " << task.to_string() << " reattached to the application master at "
            << located->to_string() << std::endl;
  return true;
}

}  // namespace spindle::container
