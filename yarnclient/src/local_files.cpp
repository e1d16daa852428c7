#include <nlohmann/json.hpp>

#include "spindle/core/text_encodings.h"
#include "spindle/yarn/application_types.h"

namespace spindle::yarn {

std::string encode_local_files(const std::vector<LocalFile>& files) {
  auto list = nlohmann::json::array();
  for (const auto& file : files) {
    list.push_back({{"name", file.name},
                    {"url", file.url},
                    {"size", file.size},
                    {"time", file.modification_time},
                    {"archive", file.archive},
                    {"private", file.kept_for_user}});
  }
  return base64_encode(list.dump());
}

Result<std::vector<LocalFile>> decode_local_files(std::string_view encoded) {
  const auto json = base64_decode(encoded);
  if (!json) return make_error("the list of staged files is not base64");
  const auto parsed = nlohmann::json::parse(*json, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_array()) return make_error("the list of staged files is not a JSON array");
  std::vector<LocalFile> files;
  for (const auto& item : parsed) {
    if (!item.is_object() || !item.contains("name") || !item["name"].is_string() || !item.contains("url") ||
        !item["url"].is_string() || !item.contains("size") || !item["size"].is_number_integer() ||
        !item.contains("time") || !item["time"].is_number_integer()) {
      return make_error("a staged file is not {\"name\", \"url\", \"size\", \"time\", \"archive\"}: " + item.dump());
    }
    LocalFile file;
    file.name = item["name"].get<std::string>();
    file.url = item["url"].get<std::string>();
    file.size = item["size"].get<std::int64_t>();
    file.modification_time = item["time"].get<std::int64_t>();
    file.archive = item.contains("archive") && item["archive"].is_boolean() && item["archive"].get<bool>();
    file.kept_for_user = item.contains("private") && item["private"].is_boolean() && item["private"].get<bool>();
    files.push_back(std::move(file));
  }
  return files;
}

}  // namespace spindle::yarn
