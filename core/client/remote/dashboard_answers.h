#pragma once

// Reading the answers of `spindle serve`'s API, apart from asking, so that
// the parsing of what comes over the network is fuzzed on its own. Each
// function never throws; `server` names the server in sentences.

#include <string>
#include <string_view>
#include <vector>

#include "spindle/client/dashboard_client.h"

namespace spindle::client {

Result<std::string> read_session_user(std::string_view body, const std::string& server);
Result<std::vector<JobHistoryEntry>> read_jobs(std::string_view body, const std::string& server);
Result<ClusterState> read_cluster(std::string_view body, const std::string& server);
Result<RemoteJob> read_job(std::string_view body, const std::string& server);
Result<std::string> read_spec(std::string_view body, const std::string& server);
Result<RemotePoints> read_points(std::string_view body, const std::string& server);
Result<RemoteLog> read_log(std::string_view body, const std::string& server);
Result<std::string> read_submitted(std::string_view body, const std::string& server);
// The sentence of a refusal ({"error", "problems"}), one line per problem; "" when it holds none.
std::string read_refusal(std::string_view body);

}  // namespace spindle::client
