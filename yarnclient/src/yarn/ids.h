#pragma once

#include <string>
#include <string_view>

#include "spindle/core/result.h"
#include "spindle/yarn/application_types.h"
#include "yarn_records.pb.h"

namespace spindle::yarn {

wire::yarn::ApplicationId to_proto(const ApplicationId& id);
ApplicationId from_proto(const wire::yarn::ApplicationId& id);

// container_[e<epoch>_]<cluster timestamp>_<app:04>_<attempt:02>_<number:06>, as YARN writes it.
std::string container_id_string(const wire::yarn::ContainerId& id);
Result<wire::yarn::ContainerId> parse_container_id(std::string_view text);

// appattempt_<cluster timestamp>_<app:04>_<attempt:06>
std::string attempt_id_string(const wire::yarn::ApplicationAttemptId& id);
Result<wire::yarn::ApplicationAttemptId> parse_attempt_id(std::string_view text);

}  // namespace spindle::yarn
