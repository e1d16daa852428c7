#pragma once

#include <nlohmann/json.hpp>

#include "spindle/client/history_store.h"

namespace spindle::cli {

// A job of the history as `list --json` and `history --json` print it.
nlohmann::json history_entry_json(const client::JobHistoryEntry& job);

}  // namespace spindle::cli
