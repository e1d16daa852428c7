#include "cli/job_json.h"

namespace spindle::cli {

nlohmann::json history_entry_json(const client::JobHistoryEntry& job) {
  return {{"application_id", job.application_id},
          {"name", job.name},
          {"user", job.user},
          {"queue", job.queue},
          {"state", job.state},
          {"diagnostics", job.diagnostics},
          {"tracking_url", job.tracking_url},
          {"submitted_ms", job.submitted_ms},
          {"started_ms", job.started_ms},
          {"finished_ms", job.finished_ms}};
}

}  // namespace spindle::cli
