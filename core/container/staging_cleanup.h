#pragma once

#include <string>

#include "spindle/core/result.h"

namespace spindle::container {

// Removes the job's staging directory once the job is over. `location` is
// what the client put in SPINDLE_STAGING: "file:///abs/dir" or the
// directory's WebHDFS URL "http://namenode:port/webhdfs/v1/dir?user.name=u".
// WebHDFS is spoken with Beast so the container binary needs no libcurl.
Result<void> remove_staging(const std::string& location);

}  // namespace spindle::container
