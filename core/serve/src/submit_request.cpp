#include "submit_request.h"

#include <nlohmann/json.hpp>

#include <set>

#include "spindle/core/text_encodings.h"

namespace spindle::serve {
namespace {

ApiRefusal bad_request(std::string sentence) {
  return {400, std::move(sentence), {}};
}

bool is_json(std::string_view content_type) {
  const auto type = content_type.substr(0, content_type.find(';'));
  return type.find("application/json") != std::string_view::npos;
}

}  // namespace

std::variant<SubmitRequest, ApiRefusal> read_submit_request(std::string body, std::string_view content_type) {
  if (!is_json(content_type)) return SubmitRequest{std::move(body), {}};
  const auto envelope = nlohmann::json::parse(body, nullptr, false);
  if (envelope.is_discarded() || !envelope.is_object()) {
    return bad_request("A JSON submit must be an object {\"spec\": \"<yaml>\", \"files\": [...]}.");
  }
  const auto spec = envelope.find("spec");
  if (spec == envelope.end() || !spec->is_string()) {
    return bad_request("A JSON submit needs \"spec\", the spec's YAML as one string.");
  }
  SubmitRequest request{spec->get<std::string>(), {}, std::nullopt};
  if (const auto keytab = envelope.find("keytab"); keytab != envelope.end() && !keytab->is_null()) {
    const auto principal = keytab->is_object() ? keytab->find("principal") : keytab->end();
    const auto content = keytab->is_object() ? keytab->find("content") : keytab->end();
    if (!keytab->is_object() || principal == keytab->end() || !principal->is_string() ||
        principal->get_ref<const std::string&>().empty() || content == keytab->end() || !content->is_string()) {
      return bad_request(
          "\"keytab\" of a JSON submit must be {\"principal\": \"alice@EXAMPLE.COM\", \"content\": \"<base64>\"}.");
    }
    auto bytes = base64_decode(content->get<std::string>());
    if (!bytes) return bad_request("keytab.content is not base64.");
    if (bytes->empty() || bytes->size() > max_keytab_bytes) {
      return bad_request("keytab.content has " + std::to_string(bytes->size()) +
                         " bytes; a keytab has between 1 and 65536. Send the principal's keytab file.");
    }
    request.keytab = UploadedKeytab{principal->get<std::string>(), std::move(*bytes)};
  }
  const auto files = envelope.find("files");
  if (files == envelope.end()) return request;
  if (!files->is_array()) return bad_request("\"files\" of a JSON submit must be a list of {\"name\", \"content\"}.");
  std::set<std::string> names;
  for (std::size_t i = 0; i < files->size(); ++i) {
    const auto& file = (*files)[i];
    const auto where = "files[" + std::to_string(i) + "]";
    if (!file.is_object() || !file.contains("name") || !file["name"].is_string() || !file.contains("content") ||
        !file["content"].is_string()) {
      return bad_request(where + " must be {\"name\": \"<name in the spec>\", \"content\": \"<base64>\"}.");
    }
    auto name = file["name"].get<std::string>();
    auto content = base64_decode(file["content"].get<std::string>());
    if (!content) return bad_request(where + ".content (" + name + ") is not base64.");
    if (!names.insert(name).second) return bad_request(where + " sends " + name + " a second time.");
    request.uploads.push_back({std::move(name), std::move(*content)});
  }
  return request;
}

}  // namespace spindle::serve
