#include "container/container_context.h"

#include "spindle/core/job_certificate.h"

#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "spindle/core/container_contract.h"
#include "spindle/core/text.h"
#include "spindle/yarn/credentials.h"

namespace spindle::container {
namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

Result<ContainerContext> read_container_context() {
  ContainerContext context;
  context.container_id = environment("CONTAINER_ID");
  // container_[e<epoch>_]<cluster timestamp>_<application>_<attempt>_<number>
  auto parts = split(context.container_id, '_');
  if (parts.size() == 6 && parts[1].starts_with('e')) parts.erase(parts.begin() + 1);
  if (parts.size() != 5 || parts[0] != "container") {
    return make_error("CONTAINER_ID is \"" + context.container_id +
                      "\", not a YARN container id; spindle-container runs in containers YARN starts");
  }
  context.application_id = "application_" + std::string(parts[1]) + "_" + std::string(parts[2]);
  context.attempt = std::atoi(std::string(parts[3]).c_str());
  context.host = environment("NM_HOST");
  if (context.host.empty()) {
    char name[256] = {};
    ::gethostname(name, sizeof(name) - 1);
    context.host = name;
  }
  context.user = environment("USER");
  const auto token_file = environment("HADOOP_TOKEN_FILE_LOCATION");
  if (token_file.empty()) return make_error("HADOOP_TOKEN_FILE_LOCATION is not set; YARN sets it in every container");
  auto credentials = yarn::Credentials::read_file(token_file);
  if (!credentials) return credentials.error();
  const auto secret = credentials->secrets.find(container_contract::secret_alias);
  if (secret == credentials->secrets.end() || secret->second.empty()) {
    return make_error(token_file + " holds no job secret (" + container_contract::secret_alias +
                      "); containers of a Spindle job get it from spindle submit");
  }
  context.secret = secret->second;
  context.token_file = token_file;
  auto secret_named = [&](const char* alias) {
    const auto found = credentials->secrets.find(alias);
    return found == credentials->secrets.end() ? std::string() : found->second;
  };
  context.api_certificate_pem = secret_named(container_contract::api_certificate_alias);
  context.api_key_pem = secret_named(container_contract::api_key_alias);
  context.api_pin = secret_named(container_contract::api_pin_alias);
  context.job_spec_json = secret_named(container_contract::job_spec_alias);
  if (context.api_pin.empty() && !context.api_certificate_pem.empty()) {
    auto pin = certificate_sha256(context.api_certificate_pem);
    if (!pin) return make_error(token_file + ": " + pin.error().message);
    context.api_pin = *pin;
  }
  for (const auto& [alias, token] : credentials->tokens) {
    if (token.kind != "YARN_AM_RM_TOKEN") context.delegation_tokens[alias] = token;
  }
  return context;
}

}  // namespace spindle::container
