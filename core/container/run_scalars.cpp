#include "container/run_scalars.h"

#include <utility>

namespace spindle::container {

RunScalars::RunScalars(std::string run_id, std::string who) : run_id_(std::move(run_id)), who_(std::move(who)) {}

void RunScalars::add(const std::string& run, const std::string& tag, std::int64_t step, double wall_time,
                     double value) {
  if (auto metric = client::training_metric(run, tag, step, wall_time, value)) unsent_.push_back(std::move(*metric));
}

std::size_t RunScalars::keep_newest(std::size_t most) {
  if (unsent_.size() <= most) return 0;
  const auto dropped = unsent_.size() - most;
  unsent_.erase(unsent_.begin(), unsent_.begin() + static_cast<std::ptrdiff_t>(dropped));
  return dropped;
}

bool RunScalars::send(client::MlflowClient& client, const Log& log) {
  if (unsent_.empty()) return true;
  if (auto logged = client.log_batch(run_id_, {}, {}, unsent_); !logged) {
    // A run is looked at every few seconds, for days: one line while it lasts.
    if (!failing_)
      log("MLflow: " + who_ + " does not get its scalars; tried again at each look: " + logged.error().message);
    failing_ = true;
    return false;
  }
  if (failing_) log("MLflow: " + who_ + " gets its scalars again");
  failing_ = false;
  unsent_.clear();
  return true;
}

}  // namespace spindle::container
