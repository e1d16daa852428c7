#include "yarn/ids.h"

#include <charconv>
#include <cstdio>
#include <vector>

#include "spindle/core/text.h"

namespace spindle::yarn {
namespace {

std::string padded(std::int64_t value, int width) {
  std::string digits = std::to_string(value);
  if (static_cast<int>(digits.size()) < width) digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
  return digits;
}

bool to_number(std::string_view text, std::int64_t& value) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && ptr == text.data() + text.size() && value >= 0;
}

}  // namespace

std::string ApplicationId::to_string() const {
  return "application_" + std::to_string(cluster_timestamp) + "_" + padded(id, 4);
}

Result<ApplicationId> ApplicationId::parse(std::string_view text) {
  const auto parts = split(text, '_');
  std::int64_t timestamp = 0;
  std::int64_t number = 0;
  if (parts.size() != 3 || parts[0] != "application" || !to_number(parts[1], timestamp) ||
      !to_number(parts[2], number) || number > 0x7FFFFFFF) {
    return make_error("\"" + std::string(text) +
                      "\" is not an application id; they look like "
                      "application_1700000000000_0001");
  }
  return ApplicationId{timestamp, static_cast<std::int32_t>(number)};
}

wire::yarn::ApplicationId to_proto(const ApplicationId& id) {
  wire::yarn::ApplicationId proto;
  proto.set_cluster_timestamp(id.cluster_timestamp);
  proto.set_id(id.id);
  return proto;
}

ApplicationId from_proto(const wire::yarn::ApplicationId& id) {
  return ApplicationId{id.cluster_timestamp(), id.id()};
}

std::string attempt_id_string(const wire::yarn::ApplicationAttemptId& id) {
  return "appattempt_" + std::to_string(id.application_id().cluster_timestamp()) + "_" +
         padded(id.application_id().id(), 4) + "_" + padded(id.attempt_id(), 6);
}

Result<wire::yarn::ApplicationAttemptId> parse_attempt_id(std::string_view text) {
  const auto parts = split(text, '_');
  std::int64_t timestamp = 0, app = 0, attempt = 0;
  if (parts.size() != 4 || parts[0] != "appattempt" || !to_number(parts[1], timestamp) || !to_number(parts[2], app) ||
      !to_number(parts[3], attempt) || app > 0x7FFFFFFF || attempt > 0x7FFFFFFF) {
    return make_error("\"" + std::string(text) +
                      "\" is not an attempt id; they look like "
                      "appattempt_1700000000000_0001_000001");
  }
  wire::yarn::ApplicationAttemptId id;
  id.mutable_application_id()->set_cluster_timestamp(timestamp);
  id.mutable_application_id()->set_id(static_cast<std::int32_t>(app));
  id.set_attempt_id(static_cast<std::int32_t>(attempt));
  return id;
}

std::string container_id_string(const wire::yarn::ContainerId& id) {
  const auto& attempt = id.app_attempt_id();
  const std::int64_t epoch = id.id() >> 40;
  const std::int64_t number = id.id() & 0xFFFFFFFFFF;
  std::string text = "container_";
  if (epoch > 0) text += "e" + padded(epoch, 2) + "_";
  return text + std::to_string(attempt.application_id().cluster_timestamp()) + "_" +
         padded(attempt.application_id().id(), 4) + "_" + padded(attempt.attempt_id(), 2) + "_" + padded(number, 6);
}

Result<wire::yarn::ContainerId> parse_container_id(std::string_view text) {
  auto parts = split(text, '_');
  const auto bad = [&] {
    return make_error("\"" + std::string(text) +
                      "\" is not a container id; they look like "
                      "container_1700000000000_0001_01_000002");
  };
  if (parts.empty() || parts[0] != "container") return bad();
  std::int64_t epoch = 0;
  if (parts.size() == 6) {
    if (parts[1].size() < 2 || parts[1][0] != 'e' || !to_number(parts[1].substr(1), epoch)) return bad();
    parts.erase(parts.begin() + 1);
  }
  std::int64_t timestamp = 0, app = 0, attempt = 0, number = 0;
  if (parts.size() != 5 || !to_number(parts[1], timestamp) || !to_number(parts[2], app) ||
      !to_number(parts[3], attempt) || !to_number(parts[4], number) || number > 0xFFFFFFFFFF) {
    return bad();
  }
  wire::yarn::ContainerId id;
  auto* attempt_id = id.mutable_app_attempt_id();
  attempt_id->mutable_application_id()->set_cluster_timestamp(timestamp);
  attempt_id->mutable_application_id()->set_id(static_cast<std::int32_t>(app));
  attempt_id->set_attempt_id(static_cast<std::int32_t>(attempt));
  *id.mutable_app_id() = attempt_id->application_id();
  id.set_id((epoch << 40) | number);
  return id;
}

}  // namespace spindle::yarn
